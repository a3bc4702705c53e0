"""The item pipeline: items that carry their own HTML."""

from __future__ import annotations

import dataclasses
import logging

import pytest
import scrapy
from scrapy.exceptions import NotConfigured
from scrapy.utils.defer import deferred_f_from_coro_f
from scrapy.utils.test import get_crawler

from scrapy_boilerplate.pipelines import BoilerplatePipeline

from .helpers import ADDON_SETTINGS, article_page


def pipeline(**settings):
    crawler = get_crawler(settings_dict={f"BOILERPLATE_{k}": v for k, v in settings.items()})
    return BoilerplatePipeline.from_crawler(crawler), crawler


def test_pipeline_needs_an_html_field():
    with pytest.raises(NotConfigured, match="BOILERPLATE_HTML_FIELD"):
        pipeline()


@dataclasses.dataclass
class Stored:
    url: str
    html: bytes | str | None = None
    main_text: str | None = None
    title: str | None = None


@deferred_f_from_coro_f
async def test_pipeline_extracts_str_and_bytes():
    pipe, crawler = pipeline(HTML_FIELD="html")
    item = await pipe.process_item(
        {"url": "https://a.example/1", "html": article_page("the old bridge")}
    )
    assert "The story about the old bridge" in item["main_text"]
    assert item["title"] == "News about the old bridge"

    html = article_page("caf\u00e9s").encode("cp1252")
    item = await pipe.process_item(Stored(url="https://a.example/2", html=html))
    assert "caf\u00e9s" in item.main_text

    untouched = await pipe.process_item({"url": "x"})  # no HTML: passes through
    assert untouched == {"url": "x"}
    assert crawler.stats.get_value("boilerplate/item_html_count") == 2
    assert crawler.stats.get_value("boilerplate/extracted_count") == 2


@deferred_f_from_coro_f
async def test_pipeline_per_domain_extractor_and_overwrite():
    pipe, crawler = pipeline(
        HTML_FIELD="html", DOMAIN_EXTRACTORS={"keep.example": "keep_everything"}
    )
    item = await pipe.process_item(
        {"url": "https://www.keep.example/1", "html": article_page("the old bridge")}
    )
    assert "Privacy" in item["main_text"]

    filled = {"url": "u", "html": article_page("x"), "main_text": "already there"}
    assert (await pipe.process_item(filled))["main_text"] == "already there"
    assert crawler.stats.get_value("boilerplate/item_field_kept") == 1

    pipe, _ = pipeline(HTML_FIELD="html", OVERWRITE=True)
    assert "story about x" in (await pipe.process_item(filled))["main_text"]


@deferred_f_from_coro_f
async def test_pipeline_never_raises(caplog):
    pipe, crawler = pipeline(HTML_FIELD="html", MAX_BYTES=1000)
    caplog.set_level(logging.WARNING)
    big = await pipe.process_item({"html": article_page("big") * 3})
    assert "main_text" not in big
    wrong = await pipe.process_item({"html": 12345})
    assert "main_text" not in wrong  # nothing found: the field is not set
    missing = await pipe.process_item(Stored.__new__(Stored))  # a dataclass with no values
    assert missing is not None
    stats = crawler.stats.get_stats()
    assert stats["boilerplate/skipped/too_large"] == 1
    assert stats["boilerplate/error_count/TypeError"] == 1
    assert "over BOILERPLATE_MAX_BYTES" in caplog.text


@pytest.mark.parametrize("executor", ["thread", "process"])
@deferred_f_from_coro_f
async def test_pipeline_in_a_crawl_with_the_addon(http_server, crawl, executor):
    """Items built from a feed of stored pages, with the add-on enabling the pipeline."""
    pages = {f"/page{i}": article_page(f"stored page {i}") for i in range(3)}
    import json

    feed = http_server.route(
        "/feed.json",
        json.dumps([{"id": k, "html": v} for k, v in pages.items()]),
        content_type="application/json",
    )

    class FeedSpider(scrapy.Spider):
        name = "feed"

        def parse(self, response):
            for entry in response.json():
                yield {"id": entry["id"], "html": entry["html"]}

    settings = {**ADDON_SETTINGS, "BOILERPLATE_HTML_FIELD": "html"}
    if executor == "process":  # the pipeline's pool is its own, started on its first item
        settings.update({"BOILERPLATE_EXECUTOR": "process", "BOILERPLATE_WORKERS": 1})
    items, crawler = await crawl(FeedSpider, settings, start_urls=[feed])
    assert len(items) == 3
    for item in items:
        assert f"stored page {item['id'][-1]}" in item["main_text"]
    stats = crawler.stats.get_stats()
    assert stats["boilerplate/skipped/non_html"] == 1  # the JSON feed itself
    assert stats["boilerplate/item_html_count"] == 3
    assert stats["boilerplate/extracted_count"] == 3
