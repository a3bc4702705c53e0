"""The Scrapy add-on: ``ADDONS = {"scrapy_boilerplate.addon.BoilerplateAddon": 0}``.

It enables the downloader middleware (order 585) and the spider middleware (order 950),
and the item pipeline (order 100) when ``BOILERPLATE_HTML_FIELD`` is set. Components you
already listed yourself (as classes or import paths) keep your order. It changes no
other setting; configure the rest with ``BOILERPLATE_*`` settings.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from scrapy import signals

from ._scrapy.compat import setdefault_in_component_priority_dict
from ._scrapy.runner import config_runner
from .middlewares import (
    DOWNLOADER_MIDDLEWARE_ORDER,
    SPIDER_MIDDLEWARE_ORDER,
    BoilerplateDownloaderMiddleware,
    BoilerplateSpiderMiddleware,
)
from .pipelines import ITEM_PIPELINE_ORDER, BoilerplatePipeline
from .settings import load_config

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
        self._prestart_workers(settings)

    def _prestart_workers(self, settings: Any) -> None:
        # With the process executor, start the workers now: Scrapy takes about as long to
        # set up the crawl as a worker takes to be ready (docs/scrapy.md), so the first
        # pages need not wait for them. (Without the add-on they start when the spider opens.)
        try:
            config = load_config(settings)
        except Exception:  # noqa: BLE001 - disabled, or a bad setting the middleware reports
            return
        runner = config_runner(self.crawler, config)
        if runner.uses_processes:
            runner.prestart(settings)
            # ended with the crawl even if it fails before its components exist
            self.crawler.signals.connect(runner.close, signal=signals.engine_stopped)
