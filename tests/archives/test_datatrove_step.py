"""The datatrove steps, run by datatrove's own local executor in worker processes."""

from __future__ import annotations

import gzip
import json

from datatrove.executor import LocalPipelineExecutor
from datatrove.pipeline.writers import JsonlWriter

from scrapy_boilerplate.archives.datatrove_step import BoilerplateExtractor, WarcPages
from scrapy_boilerplate.archives.writing import write_warc

from .helpers import IMAGE, gzip_members, news


def written(folder):
    docs = []
    for path in sorted(folder.glob("*.jsonl.gz")):
        with gzip.open(path, "rt", encoding="utf-8") as fh:
            docs += [json.loads(line) for line in fh]
    return sorted(docs, key=lambda d: d["metadata"]["url"])


def test_a_pipeline_of_warc_pages_and_our_extractor_on_two_workers(tmp_path):
    crawl = tmp_path / "crawl"
    crawl.mkdir()
    write_warc(crawl / "a.warc.gz", [news(0), IMAGE, news(1)])
    broken = bytearray(gzip_members([news(98)])[0])
    broken[30:60] = b"\x00" * 30
    (crawl / "b.warc.gz").write_bytes(gzip_members([news(2)])[0] + bytes(broken))
    executor = LocalPipelineExecutor(
        pipeline=[
            WarcPages(str(crawl), glob_pattern="*.warc.gz"),
            BoilerplateExtractor(timeout=10),
            JsonlWriter(str(tmp_path / "out")),
        ],
        tasks=2,
        workers=2,
        logging_dir=str(tmp_path / "logs"),
    )
    executor.run()
    docs = written(tmp_path / "out")
    assert [d["metadata"]["url"] for d in docs] == [f"http://news.example/{i}" for i in range(3)]
    assert all("began early on Tuesday" in d["text"] and "<p>" not in d["text"] for d in docs)
    assert all(d["id"].startswith("<urn:uuid:") for d in docs)
    stats = json.loads((tmp_path / "logs" / "stats.json").read_text())
    reader = next(s for s in stats if "WARC pages" in s["name"])
    assert reader["stats"]["skipped_non_html"] == 1
    assert reader["stats"]["skipped_broken_gzip"] == 1


def test_the_extractor_step_replaces_html_with_main_text():
    step = BoilerplateExtractor(extractor="article")
    text = step.extract(news(0).body.decode())
    assert "began early on Tuesday" in text and "Contact" not in text
