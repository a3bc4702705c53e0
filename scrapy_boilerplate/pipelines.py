"""An item pipeline that extracts main content from items carrying raw HTML.

For items that bring their own page, not a response: feeds of stored pages, archive
(WARC/WACZ) replays, items built from an API. Set ``BOILERPLATE_HTML_FIELD`` to the field
that holds the HTML (``str`` or ``bytes``); the text and title go to
``BOILERPLATE_TEXT_FIELD`` / ``BOILERPLATE_TITLE_FIELD`` as with the spider middleware.
An item's ``url`` field, if any, selects the per-domain extractor.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

from itemadapter import ItemAdapter
from scrapy import signals
from scrapy.exceptions import NotConfigured

from ._scrapy.items import ItemFiller
from ._scrapy.log import OnceLogger
from ._scrapy.results import PRESET_EXTRA_FIELDS, count_result, error_result, item_values
from ._scrapy.runner import config_runner
from .settings import load_config

if TYPE_CHECKING:
    from scrapy.crawler import Crawler

__all__ = ["ITEM_PIPELINE_ORDER", "BoilerplatePipeline"]

logger = logging.getLogger(__name__)

#: early, so that validation and storage pipelines (usually 300+) see the fields
ITEM_PIPELINE_ORDER = 100


class BoilerplatePipeline:
    """Extract from the HTML in ``BOILERPLATE_HTML_FIELD`` and fill the text/title fields.

    Items without HTML in that field pass through untouched; items whose text field is
    already non-empty (e.g. filled by the spider middleware) are not extracted again
    unless ``BOILERPLATE_OVERWRITE`` is set. Never raises for an item.
    """

    def __init__(self, crawler: Crawler) -> None:
        self.crawler = crawler
        self.config = load_config(crawler.settings)
        if not self.config.html_field:
            raise NotConfigured(
                "BOILERPLATE_HTML_FIELD is not set: name the item field that holds raw HTML"
            )
        self.runner = config_runner(crawler, self.config)
        self.filler = ItemFiller(crawler, self.config.overwrite, logger)
        self.once = OnceLogger(logger, crawler)
        crawler.signals.connect(self.spider_closed, signal=signals.spider_closed)

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> BoilerplatePipeline:
        return cls(crawler)

    def spider_closed(self, spider: Any = None) -> None:
        self.runner.close()

    async def process_item(self, item: Any, spider: Any = None) -> Any:
        if not ItemAdapter.is_item(item):
            return item
        config = self.config
        stats = self.crawler.stats
        adapter = ItemAdapter(item)
        html = adapter.get(config.html_field)
        if html is None or html == "" or html == b"":
            return item
        stats.inc_value("boilerplate/item_html_count")
        url = adapter.get("url")
        url = url if isinstance(url, str) else None
        if not config.overwrite and adapter.get(config.text_field):
            stats.inc_value("boilerplate/item_field_kept")
            return item
        if not isinstance(html, (str, bytes)):
            result = error_result(
                TypeError(f"{config.html_field} holds {type(html).__name__}, not str or bytes"),
                url,
                None,
            )
            self.once(
                ("type", type(item), type(html)),
                logging.WARNING,
                "%s: %s (warned once per item class)",
                type(item).__name__,
                result["error"],
            )
        elif config.max_bytes and len(html) > config.max_bytes:
            stats.inc_value("boilerplate/skipped/too_large")
            self.once(
                "too_large",
                logging.WARNING,
                "Not extracting the %s of an item (%s): %d characters or bytes, over "
                "BOILERPLATE_MAX_BYTES (%d). Further ones are only counted in "
                "boilerplate/skipped/too_large.",
                config.html_field,
                url or type(item).__name__,
                len(html),
                config.max_bytes,
            )
            return item
        else:
            extractor = config.extractor_for_url(url)
            try:
                result = await self.runner.extract(
                    extractor, html, url, config.timeout, config.formats
                )
            except Exception as exc:
                result = error_result(exc, url, extractor.name)
                self.once(
                    ("error", type(exc)),
                    logging.WARNING,
                    "Extraction failed on an item (%s): %s: %s (further ones are only "
                    "counted in boilerplate/error_count/%s)",
                    url or type(item).__name__,
                    type(exc).__name__,
                    exc,
                    type(exc).__name__,
                    exc_info=exc,
                )
        count_result(stats, result)
        self.filler.fill(item, item_values(result, config), optional=PRESET_EXTRA_FIELDS)
        return item
