"""Batch extraction over archive pages: one result per page, in order, in this process or
in worker processes, whatever a page does to its extractor."""

from __future__ import annotations

import pytest

from scrapy_boilerplate import get_extractor
from scrapy_boilerplate.archives import iter_archive
from scrapy_boilerplate.archives.batch import BatchSummary, extract_pages
from scrapy_boilerplate.archives.records import BROKEN_GZIP, NON_HTML
from scrapy_boilerplate.archives.writing import write_warc

from .helpers import IMAGE, gzip_members, misbehaving_extractor, news

WORKERS = [1, 2]


def without_timings(result):
    return {k: v for k, v in result.items() if k != "timings"}


@pytest.fixture
def archive(tmp_path):
    """Six news pages, an image, and a broken gzip member between pages 2 and 3."""
    members = gzip_members([news(0), news(1), news(2), IMAGE])
    broken = bytearray(gzip_members([news(99)])[0])
    broken[30:60] = b"\x00" * 30
    members.append(bytes(broken))
    members += gzip_members([news(3), news(4), news(5)])
    path = tmp_path / "mixed.warc.gz"
    path.write_bytes(b"".join(members))
    return path


@pytest.mark.parametrize("workers", WORKERS)
def test_every_record_gives_one_result_or_one_counted_skip(archive, workers):
    summary = BatchSummary()
    results = list(
        extract_pages(
            iter_archive(archive), get_extractor("article"), workers=workers, summary=summary
        )
    )
    assert [r["url"] for r in results] == [f"http://news.example/{i}" for i in range(6)]
    assert [r["error"] for r in results] == [None] * 6
    assert all(r["text"] and r["reason"] is None for r in results)
    assert summary.pages == 6 and summary.errors == 0
    assert summary.skipped == {NON_HTML: 1, BROKEN_GZIP: 1}
    assert "6 pages" in summary.line() and "1 broken_gzip, 1 non_html" in summary.line()


def test_processes_give_the_results_of_this_process(archive):
    extractor = get_extractor("article")
    inline = [without_timings(r) for r in extract_pages(iter_archive(archive), extractor)]
    pooled = [
        without_timings(r) for r in extract_pages(iter_archive(archive), extractor, workers=2)
    ]
    assert pooled == inline


def test_a_result_carries_the_record_fields_then_the_extraction(archive):
    [first, *_] = extract_pages(iter_archive(archive), get_extractor("article"))
    assert list(first)[:5] == ["url", "record_id", "date", "status", "source"]
    assert first["extractor"] == "article" and first["title"] == "News about the harbour"
    assert "total_ms" in first["timings"]


@pytest.mark.parametrize("workers", WORKERS)
def test_an_extraction_that_raises_gives_an_error_result(tmp_path, workers):
    path = tmp_path / "a.warc.gz"
    write_warc(path, [news(0), news(1), news(2)])  # news(1) is about the bridge
    summary = BatchSummary()
    extractor = misbehaving_extractor("bridge", "raise")
    results = list(extract_pages(iter_archive(path), extractor, workers=workers, summary=summary))
    assert [r["reason"] for r in results] == [None, "error", None]
    assert results[1]["error"] == "ValueError: cannot stand bridge"
    assert summary.errors == 1 and summary.pages == 3


def test_a_worker_that_dies_costs_its_page_only(tmp_path):
    path = tmp_path / "a.warc.gz"
    write_warc(path, [news(i) for i in range(6)])  # pages 1 and 6 are about the bridge
    results = list(
        extract_pages(iter_archive(path), misbehaving_extractor("bridge", "exit"), workers=2)
    )
    assert [r["reason"] for r in results] == [None, "error", None, None, None, None]
    assert "WorkerDied" in results[1]["error"]


def test_a_page_past_its_budget_in_a_worker_is_a_timeout(tmp_path):
    path = tmp_path / "a.warc.gz"
    write_warc(path, [news(0), news(1), news(2)])
    summary = BatchSummary()
    results = list(
        extract_pages(
            iter_archive(path),
            misbehaving_extractor("bridge", "sleep"),
            workers=2,
            timeout=0.2,  # the worker is killed after 1.3 s
            summary=summary,
        )
    )
    assert [r["reason"] for r in results] == [None, "timeout", None]
    assert summary.errors == 1


def test_the_summary_as_data():
    summary = BatchSummary(pages=10, errors=1, seconds=2.0)
    summary.skipped["non_html"] += 3
    assert summary.to_dict() == {
        "pages": 10,
        "errors": 1,
        "skipped": {"non_html": 3},
        "seconds": 2.0,
        "pages_per_second": 5.0,
    }


@pytest.mark.parametrize("workers", WORKERS)
def test_an_archive_is_read_as_a_crawl_remembering_each_sites_template(tmp_path, workers):
    from scrapy_boilerplate.archives.writing import StoredResponse
    from scrapy_boilerplate.extraction import Extractor
    from scrapy_boilerplate.filters.base import Chain

    from ..scrapy.test_site_memory import SIDEBAR, KeepAllButAMarkedSidebar, site_pages_html

    first, second = site_pages_html()
    path = tmp_path / "site.warc.gz"
    path.write_bytes(
        b"".join(
            gzip_members(
                [StoredResponse(f"http://blog.example/{n}", html.encode())
                 for n, html in enumerate((first, second))]
            )
        )
    )  # fmt: skip
    extractor = Extractor(Chain([KeepAllButAMarkedSidebar()]), "keeps")
    texts = {
        memory: [r["text"] for r in extract_pages(
            iter_archive(path), extractor, workers=workers, site_memory=memory
        )]
        for memory in (16, 0)
    }  # fmt: skip
    assert SIDEBAR not in texts[16][0] and SIDEBAR not in texts[16][1]
    assert SIDEBAR in texts[0][1]
