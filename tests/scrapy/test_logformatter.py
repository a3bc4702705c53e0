"""The log formatter that keeps "Scraped from" lines short when items carry main text."""

from __future__ import annotations

import logging

from scrapy.utils.defer import deferred_f_from_coro_f

from .helpers import ADDON_SETTINGS, article_page
from .test_middlewares import AllItemsSpider


def _scraped_lines(caplog):
    return [r.getMessage() for r in caplog.records if r.getMessage().startswith("Scraped from")]


@deferred_f_from_coro_f
async def test_long_fields_are_shortened_in_the_log_only(http_server, crawl, caplog):
    url = http_server.route("/a.html", article_page("the harbour market"))
    caplog.set_level(logging.DEBUG)
    settings = {
        **ADDON_SETTINGS,
        "LOG_LEVEL": "DEBUG",
        "LOG_FORMATTER": "scrapy_boilerplate.logformatter.BoilerplateLogFormatter",
    }
    items, _ = await crawl(AllItemsSpider, settings, start_urls=[url])
    dicts = [i for i in items if isinstance(i, dict)]
    assert len(dicts[0]["main_text"]) > 400  # the item keeps its whole text
    lines = _scraped_lines(caplog)
    assert lines and all(len(line) < 800 for line in lines)
    assert any("characters)" in line and "The story about the harbour" in line for line in lines)


@deferred_f_from_coro_f
async def test_without_it_scrapy_logs_the_whole_text(http_server, crawl, caplog):
    url = http_server.route("/a.html", article_page("the harbour market"))
    caplog.set_level(logging.DEBUG)
    items, _ = await crawl(
        AllItemsSpider, {**ADDON_SETTINGS, "LOG_LEVEL": "DEBUG"}, start_urls=[url]
    )
    assert any("first Monday of the coming month" in line for line in _scraped_lines(caplog))
