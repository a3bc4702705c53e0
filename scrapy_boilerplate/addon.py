"""The Scrapy add-on: ``ADDONS = {"scrapy_boilerplate.addon.BoilerplateAddon": 0}``.

It enables the downloader middleware (order 585) and the spider middleware (order 950),
and the item pipeline (order 100) when ``BOILERPLATE_HTML_FIELD`` is set. Components you
already listed yourself (as classes or import paths) keep your order. It changes no
other setting; configure the rest with ``BOILERPLATE_*`` settings.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .middlewares import (
    DOWNLOADER_MIDDLEWARE_ORDER,
    SPIDER_MIDDLEWARE_ORDER,
    BoilerplateDownloaderMiddleware,
    BoilerplateSpiderMiddleware,
)
from .pipelines import ITEM_PIPELINE_ORDER, BoilerplatePipeline
from .scrapy_utils import setdefault_in_component_priority_dict

if TYPE_CHECKING:
    from scrapy.crawler import Crawler

__all__ = ["BoilerplateAddon"]


class BoilerplateAddon:
    """Enable scrapy-boilerplate's components in a crawl."""

    def __init__(self, crawler: Crawler) -> None:
        self.crawler = crawler

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> BoilerplateAddon:
        return cls(crawler)

    def update_settings(self, settings: Any) -> None:
        setdefault_in_component_priority_dict(
            settings,
            "DOWNLOADER_MIDDLEWARES",
            BoilerplateDownloaderMiddleware,
            DOWNLOADER_MIDDLEWARE_ORDER,
        )
        setdefault_in_component_priority_dict(
            settings, "SPIDER_MIDDLEWARES", BoilerplateSpiderMiddleware, SPIDER_MIDDLEWARE_ORDER
        )
        if settings.get("BOILERPLATE_HTML_FIELD"):
            setdefault_in_component_priority_dict(
                settings, "ITEM_PIPELINES", BoilerplatePipeline, ITEM_PIPELINE_ORDER
            )
