"""Scrapy middlewares: extract main content from HTML responses and put it on items.

* :class:`BoilerplateDownloaderMiddleware` (order 585, just below
  ``HttpCompressionMiddleware`` at 590, so it sees decompressed bodies after redirects
  were followed) extracts from HTML responses, off the reactor thread, and stores a small
  result dict under ``response.meta["boilerplate_result"]``.
* :class:`BoilerplateSpiderMiddleware` (order 950, next to the spider, so other spider
  middlewares already see the fields) copies the text and the title onto every item the
  callback yields for that response.

Enable both with the add-on (``ADDONS = {"scrapy_boilerplate.addon.BoilerplateAddon": 0}``)
or by hand (see ``docs/scrapy.md``). Settings: ``docs/settings.md``; meta keys:
``docs/meta.md``; stats: ``docs/stats.md``.
"""

from __future__ import annotations

import logging
import warnings
from typing import TYPE_CHECKING, Any

from itemadapter import ItemAdapter
from scrapy import signals
from scrapy.exceptions import ScrapyDeprecationWarning
from scrapy.http import HtmlResponse, TextResponse
from scrapy.utils.httpobj import urlparse_cached
from w3lib.encoding import html_body_declared_encoding

from ._scrapy.compat import BaseSpiderMiddleware
from ._scrapy.items import ItemFiller
from ._scrapy.log import OnceLogger
from ._scrapy.overrides import (
    OVERRIDE_KEYS,
    SpecCache,
    flag_override,
    max_bytes_override,
)
from ._scrapy.results import (
    PRESET_EXTRA_FIELDS,
    SKIP_REASONS,
    count_result,
    error_result,
    is_skipped,
    item_values,
    skipped_result,
)
from ._scrapy.runner import config_runner
from ._scrapy.slots import SlotLender
from .encoding import declared_encoding, decodes_document, detect_encoding
from .extraction import Extractor
from .parallel.worker import EncodedPage
from .settings import META_KEY, RESULT_KEY, load_config

if TYPE_CHECKING:
    from scrapy import Request
    from scrapy.crawler import Crawler
    from scrapy.http import Response

__all__ = [
    "DOWNLOADER_MIDDLEWARE_ORDER",
    "SPIDER_MIDDLEWARE_ORDER",
    "BoilerplateDownloaderMiddleware",
    "BoilerplateSpiderMiddleware",
]

logger = logging.getLogger(__name__)

#: below HttpCompressionMiddleware (590): process_response runs in decreasing order
DOWNLOADER_MIDDLEWARE_ORDER = 585
#: next to the spider: process_spider_output runs in decreasing order
SPIDER_MIDDLEWARE_ORDER = 950

_HTML_TYPES = (b"text/html", b"application/xhtml+xml")


def is_html_response(response: Any) -> bool:
    """True for an HtmlResponse, or a TextResponse declared text/html or XHTML."""
    if isinstance(response, HtmlResponse):
        return True
    if not isinstance(response, TextResponse):
        return False
    ctype = response.headers.get(b"Content-Type") or b""
    return ctype.split(b";", 1)[0].strip().lower() in _HTML_TYPES


class BoilerplateDownloaderMiddleware:
    """Extract the main content of HTML responses into ``response.meta["boilerplate_result"]``.

    Skips (and counts) non-HTML responses, non-2xx statuses, bodies over
    ``BOILERPLATE_MAX_BYTES`` and requests with ``meta={"boilerplate": False}``. Never
    raises for a page: a failure becomes an empty result with ``reason="error"``.
    """

    def __init__(self, crawler: Crawler) -> None:
        self.crawler = crawler
        self.config = load_config(crawler.settings)
        self.runner = config_runner(crawler, self.config)
        # inline extraction never waits, so it has no slot to lend
        lendable = self.config.waiting_responses if self.runner.workers > 0 else 0
        self.slots = SlotLender(crawler, lendable)
        self.specs = SpecCache(self.config.allowed_imports)
        self.once = OnceLogger(logger, crawler)
        crawler.signals.connect(self.spider_opened, signal=signals.spider_opened)
        crawler.signals.connect(self.spider_closed, signal=signals.spider_closed)

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> BoilerplateDownloaderMiddleware:
        return cls(crawler)

    async def process_response(
        self, request: Request, response: Response, spider: Any = None
    ) -> Response:
        stats = self.crawler.stats
        stats.inc_value("boilerplate/response_count")
        meta = request.meta
        setting = meta.get(META_KEY)
        overrides: dict[str, Any] = setting if isinstance(setting, dict) else {}
        if setting is False or overrides.get("enabled") is False:
            self._skip(meta, "disabled", response)
            return response
        response = self._with_a_document_encoding(response)
        max_bytes = self.config.max_bytes
        formats = self.config.formats
        try:
            if "max_bytes" in overrides:
                max_bytes = max_bytes_override(overrides["max_bytes"])
            if flag_override("annotated", overrides.get("annotated", False)):
                formats = (*formats, "annotated")  # made in the worker, with the text
            site_memory = flag_override("site_memory", overrides.get("site_memory", True))
            reason = self._skip_reason(response, max_bytes)
            if reason is not None:
                self._skip(meta, reason, response, max_bytes)
                return response
            extractor = self._extractor(request, overrides)
        except Exception as exc:  # a bad spec or value in meta: this response only
            self.once(
                ("bad_meta", type(exc)),
                logging.WARNING,
                "Bad meta[%r] overrides on %s: %s (further bad overrides are only counted "
                "in boilerplate/error_count)",
                META_KEY,
                request.url,
                exc,
            )
            result = error_result(exc, response.url, None)
            count_result(stats, result)
            meta[RESULT_KEY] = result
            return response

        try:
            if self.runner.uses_processes:
                # the bytes go to the worker, which decodes them as response.text would
                html: Any = EncodedPage(response.body, response.encoding)
            else:
                html = _text_of(response)  # decoded in the worker thread
            with self.slots.lending() as lent:
                if lent:
                    stats.max_value("boilerplate/lent_slots_max", self.slots.lent)
                result = await self.runner.extract(
                    extractor, html, response.url, self.config.timeout, formats, site_memory
                )
        except Exception as exc:
            result = error_result(exc, response.url, extractor.name)
            self.once(
                ("error", type(exc)),
                logging.WARNING,
                "Extraction failed on %s: %s: %s (further %s errors are only counted in "
                "boilerplate/error_count/%s)",
                response.url,
                type(exc).__name__,
                exc,
                type(exc).__name__,
                type(exc).__name__,
                exc_info=exc,
            )
        else:
            if result["reason"] == "timeout":
                self.once(
                    "timeout",
                    logging.WARNING,
                    "Extraction of %s ran past BOILERPLATE_TIMEOUT (%s s): no main text for "
                    "it; further ones are only counted in boilerplate/timeout_count",
                    response.url,
                    self.config.timeout,
                )
            elif not result["text"]:
                self.once(
                    ("empty", result["reason"]),
                    logging.INFO,
                    "No main content found on %s (reason: %s); further empty pages are only "
                    "counted in boilerplate/empty/%s",
                    response.url,
                    result["reason"],
                    result["reason"],
                )
        count_result(stats, result)
        meta[RESULT_KEY] = result
        return response

    # -- helpers ---------------------------------------------------------------------------
    def _with_a_document_encoding(self, response: Response) -> Response:
        """The response, or, where the encoding it names cannot decode a document, a copy
        that decodes in the encoding the engine detects (``encoding.detect_encoding``).

        ``<meta charset="rot13">`` makes ``response.text`` raise: in the spider's callback
        (``response.css`` too) and in Scrapy's ``MetaRefreshMiddleware``, which then drops
        the response; ``punycode`` gives "" for an ASCII page, in time quadratic in it
        (1.2 s for 80 KB), in the reactor's thread when ``MetaRefreshMiddleware`` reads it.
        Counted in ``boilerplate/encoding_replaced``."""
        if not isinstance(response, TextResponse):
            return response
        # what the header and the first 4 KB declare, read cheaply: response.encoding
        # itself decodes an undeclared body, in the reactor's thread (the worker thread
        # does that, through response.text)
        body = response.body
        header = response.headers.get(b"Content-Type")
        declared = (
            declared_encoding(header.decode("latin-1") if header else None),
            html_body_declared_encoding(body),
        )
        if all(name is None or decodes_document(name, body) for name in declared):
            return response
        try:
            if decodes_document(response.encoding, body):
                return response  # (a byte order mark wins over the declarations)
        except (LookupError, ValueError):
            pass
        self.crawler.stats.inc_value("boilerplate/encoding_replaced")
        return response.replace(encoding=detect_encoding(response.body))

    def _extractor(self, request: Request, overrides: dict[str, Any]) -> Extractor:
        if overrides:
            unknown = set(overrides) - OVERRIDE_KEYS
            if unknown:
                # once per crawl, whatever the keys: a request's meta may come from outside
                # data, and a kind per set of keys grew without bound (and so did the log)
                self.once(
                    "unknown_meta",
                    logging.WARNING,
                    "Ignoring unknown keys %s in meta[%r] of %s (known: %s; further unknown "
                    "keys are not logged)",
                    ", ".join(sorted(map(repr, unknown))[:10]),
                    META_KEY,
                    request.url,
                    ", ".join(sorted(OVERRIDE_KEYS)),
                )
            if "chain" in overrides:
                warnings.warn(
                    f'meta[{META_KEY!r}]["chain"] is deprecated: "extractor" takes the same '
                    "specs (names, lists, import paths)",
                    ScrapyDeprecationWarning,
                    stacklevel=2,
                )
            spec = overrides.get("extractor", overrides.get("chain"))
            if spec is not None:
                return self.specs.get(spec)
        if not self.config.domain_extractors:
            return self.config.extractor
        return self.config.extractor_for(urlparse_cached(request).hostname)

    @staticmethod
    def _skip_reason(response: Response, max_bytes: int) -> str | None:
        if not 200 <= response.status < 300:
            return "status"
        if not is_html_response(response):
            return "non_html"
        if max_bytes and len(response.body) > max_bytes:
            return "too_large"
        return None

    def _skip(
        self, meta: dict[str, Any], reason: str, response: Response, max_bytes: int = 0
    ) -> None:
        self.crawler.stats.inc_value(f"boilerplate/skipped/{reason}")
        meta[RESULT_KEY] = skipped_result(reason, response.url)
        if reason == "too_large":
            self.once(
                reason,
                logging.WARNING,
                "Not extracting %s: its body (%d bytes) is over BOILERPLATE_MAX_BYTES (%d). "
                "Further pages over the limit are only counted in boilerplate/skipped/too_large.",
                response.url,
                len(response.body),
                max_bytes,
            )
        else:
            detail = {
                "status": f"status {response.status}",
                "non_html": "not HTML (Content-Type: {})".format(
                    (response.headers.get(b"Content-Type") or b"none").decode("latin-1")
                ),
                "disabled": f"meta[{META_KEY!r}] is False",
            }[reason]
            self.once(
                reason,
                logging.DEBUG,
                "Not extracting %s: %s. Further such responses are only counted in "
                "boilerplate/skipped/%s.",
                response.url,
                detail,
                reason,
            )

    def spider_opened(self, spider: Any = None) -> None:
        # worker processes start while the first pages download
        self.runner.start()

    def spider_closed(self, spider: Any = None, reason: Any = None) -> None:
        self.runner.close()
        stats = self.crawler.stats
        seen = stats.get_value("boilerplate/response_count", 0)
        if not seen:
            return
        skipped = sum(stats.get_value(f"boilerplate/skipped/{r}", 0) for r in SKIP_REASONS)
        logger.info(
            "Boilerplate: %d responses, %d with main text, %d empty, %d skipped, %d timed "
            "out, %d errors",
            seen,
            stats.get_value("boilerplate/extracted_count", 0),
            stats.get_value("boilerplate/empty_count", 0),
            skipped,
            stats.get_value("boilerplate/timeout_count", 0),
            stats.get_value("boilerplate/error_count", 0),
            extra={"spider": self.crawler.spider},
        )


def _text_of(response: Response) -> Any:
    """A callable decoding the response in the worker thread (Scrapy's own decoding:
    Content-Type header, BOM, <meta>, detection; cached on the response). A response
    whose named encoding cannot decode a document was replaced before
    (``_with_a_document_encoding``)."""
    return lambda: response.text


class BoilerplateSpiderMiddleware(BaseSpiderMiddleware):
    """Copy ``main_text`` and ``title`` (see ``BOILERPLATE_TEXT_FIELD``,
    ``BOILERPLATE_TITLE_FIELD``, ``BOILERPLATE_ITEM_PRESET``) from
    ``response.meta["boilerplate_result"]`` onto every item the callback yields.

    Works with every item type itemadapter knows (dict, ``scrapy.Item``, dataclass,
    attrs, ...). Items of skipped responses (non-HTML, bad status, too large, disabled)
    are left alone.
    """

    def __init__(self, crawler: Crawler) -> None:
        super().__init__(crawler)
        self.crawler = crawler
        self.config = load_config(crawler.settings)
        self.filler = ItemFiller(crawler, self.config.overwrite, logger)

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> BoilerplateSpiderMiddleware:
        return cls(crawler)

    def get_processed_item(self, item: Any, response: Response | None) -> Any:
        if response is None:
            return item
        try:
            result = response.meta.get(RESULT_KEY)
        except AttributeError:  # a response that did not come from a request
            return item
        if not isinstance(result, dict) or is_skipped(result):
            return item
        if not ItemAdapter.is_item(item):
            return item
        self.filler.fill(item, item_values(result, self.config), optional=PRESET_EXTRA_FIELDS)
        return item
