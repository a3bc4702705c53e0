"""Fixtures for the Scrapy layer's tests: pages, settings (add-on or manual), a crawl runner."""

from __future__ import annotations

import pytest

from .helpers import ADDON_SETTINGS, BASE_SETTINGS, MANUAL_SETTINGS


@pytest.fixture(params=["addon", "manual"])
def plugin_settings(request):
    """The plugin enabled through the add-on, then by listing the components by hand."""
    return dict(ADDON_SETTINGS if request.param == "addon" else MANUAL_SETTINGS)


@pytest.fixture
def crawl():
    """``await crawl(SpiderClass, settings)`` runs a real crawl; returns (items, crawler)."""

    async def _crawl(spidercls, settings=None, **spider_kwargs):
        from scrapy import signals
        from scrapy.utils.defer import maybe_deferred_to_future
        from scrapy.utils.test import get_crawler

        crawler = get_crawler(spidercls, {**BASE_SETTINGS, **(settings or {})})
        items = []

        def collect(item, response=None, spider=None):
            items.append(item)

        crawler.signals.connect(collect, signal=signals.item_scraped)
        if hasattr(crawler, "crawl_async"):  # Scrapy 2.14+
            await crawler.crawl_async(**spider_kwargs)
        else:  # pragma: no cover - older Scrapy
            await maybe_deferred_to_future(crawler.crawl(**spider_kwargs))
        return items, crawler

    return _crawl
