"""Reading Scrapy's HTTP cache: a crawl's stored pages, re-extracted without a new crawl."""

from __future__ import annotations

from collections import Counter

import pytest
import scrapy
from scrapy.utils.defer import deferred_f_from_coro_f

from scrapy_boilerplate.archives import ArchivedPage, Skipped, is_archive, iter_archive
from scrapy_boilerplate.archives.records import INCOMPLETE_ENTRY, NON_HTML

from ..scrapy.helpers import article_page


class ListSpider(scrapy.Spider):
    name = "cached"

    def start_requests(self):
        for url in self.start_urls:
            yield scrapy.Request(url, callback=lambda response: None)


async def crawl_into_cache(crawl, http_server, tmp_path, gzip: bool):
    urls = [
        http_server.route("/a", article_page("the harbour")),
        http_server.route(
            "/b",
            article_page("Ярославль").encode("cp1251"),
            content_type="text/html; charset=windows-1251",
        ),
        http_server.route("/logo.png", b"\x89PNG\r\n\x1a\n" + bytes(50), content_type="image/png"),
    ]
    cache = tmp_path / "httpcache"
    settings = {
        "HTTPCACHE_ENABLED": True,
        "HTTPCACHE_DIR": str(cache),
        "HTTPCACHE_GZIP": gzip,
    }
    await crawl(ListSpider, settings, start_urls=urls)
    return cache, urls


@pytest.mark.parametrize("gzip", [False, True], ids=["plain", "gzip"])
@deferred_f_from_coro_f
async def test_a_crawls_cache_gives_its_html_pages(crawl, http_server, tmp_path, gzip):
    cache, urls = await crawl_into_cache(crawl, http_server, tmp_path, gzip)
    assert is_archive(cache) and is_archive(cache / "cached")
    items = list(iter_archive(cache))
    pages = {i.url: i for i in items if isinstance(i, ArchivedPage)}
    assert set(pages) == set(urls[:2])
    assert Counter(i.reason for i in items if isinstance(i, Skipped)) == {NON_HTML: 1}
    cyrillic = pages[urls[1]]
    assert cyrillic.content_type == "text/html; charset=windows-1251"
    assert cyrillic.status == 200 and cyrillic.date.startswith("20")
    assert len(cyrillic.record_id) == 40  # the request fingerprint
    # the header's charset decodes the page
    from scrapy_boilerplate import extract

    result = extract(cyrillic.body, cyrillic.url, content_type=cyrillic.content_type)
    assert "Ярославль" in result.text


def test_an_entry_without_its_body_is_counted_incomplete(tmp_path):
    entry = tmp_path / "spider" / "ab" / ("ab" + "0" * 38)
    entry.mkdir(parents=True)
    (entry / "meta").write_text(
        repr({"url": "http://x/", "response_url": "http://x/", "status": 200, "timestamp": 1.0})
    )
    (entry / "response_headers").write_bytes(b"Content-Type: text/html\r\n")
    items = list(iter_archive(tmp_path))
    assert items == [Skipped(INCOMPLETE_ENTRY, str(tmp_path), detail=f"{entry}: no response_body")]


def test_a_body_is_read_up_to_the_page_limit_only(tmp_path, monkeypatch):
    import gzip

    from scrapy_boilerplate.archives import httpcache

    monkeypatch.setattr(httpcache, "MAX_PAGE_BYTES", 10_000)
    entry = tmp_path / "spider" / "ab" / "abcd"
    entry.mkdir(parents=True)
    (entry / "meta").write_text(repr({"url": "http://x/", "status": 200}))
    (entry / "response_headers").write_bytes(b"Content-Type: text/html\r\n")
    body = b"<html><body>" + b"<p>words</p>" * 10_000
    (entry / "response_body").write_bytes(gzip.compress(body))
    [page] = list(iter_archive(tmp_path))
    assert page.body == body[:10_000]
    assert page.warnings == ("body_limit",)


def test_meta_is_read_as_a_literal_never_unpickled(tmp_path):
    # a crafted cache whose meta is code: it is refused, not run
    entry = tmp_path / "spider" / "ab" / "abcd"
    entry.mkdir(parents=True)
    (entry / "meta").write_text("__import__('os').system('touch pwned')")
    (entry / "response_headers").write_bytes(b"")
    (entry / "response_body").write_bytes(b"<p>x</p>")
    [item] = list(iter_archive(tmp_path))
    assert isinstance(item, Skipped) and item.reason == "unreadable"
    assert not (tmp_path / "pwned").exists()


@pytest.mark.parametrize(
    ("meta", "why"),
    [
        ("-" * 10_000 + "1", "nested too deeply"),  # the parser's stack: MemoryError
        ("not " * 10_000 + "1", "nested too deeply"),
        # not parsed: a list of millions of numbers took gigabytes
        ("[" + "1," * 40_000 + "]", "meta over 65536 bytes"),
    ],
    ids=["unary-minus", "not", "huge-list"],
)
def test_a_crafted_meta_is_skipped_as_unreadable(tmp_path, meta, why):
    entry = tmp_path / "spider" / "ab" / "abcd"
    entry.mkdir(parents=True)
    (entry / "meta").write_text(meta)
    (entry / "response_headers").write_bytes(b"Content-Type: text/html\r\n")
    (entry / "response_body").write_bytes(b"<p>x</p>")
    [item] = list(iter_archive(tmp_path))
    assert isinstance(item, Skipped) and item.reason == "unreadable"
    assert why in item.detail


def test_a_folder_of_html_files_is_not_a_cache(tmp_path):
    (tmp_path / "a.html").write_text("<p>x</p>")
    assert not is_archive(tmp_path)
