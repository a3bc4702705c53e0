"""The function the Scrapy layer runs in worker threads or processes.

It imports no Scrapy, so that worker processes (``BOILERPLATE_EXECUTOR = "process"``)
start quickly: they only load the engine.
"""

from __future__ import annotations

import pickle
import time
from typing import Any, NamedTuple

from ..extraction import FORMATS, Extractor, _besides_text
from ..site_memory import SiteMemory

__all__ = [
    "EncodedPage",
    "HttpBody",
    "extract_pickled",
    "extract_pickled_many",
    "extract_to_dict",
]


class EncodedPage(NamedTuple):
    """A response's body and the encoding Scrapy chose for it (``response.encoding``).

    What goes to a worker process instead of the decoded text: bytes cross the pipe as
    they are, and the decoding runs in the worker, the way ``TextResponse.text`` does it
    (w3lib's ``html_to_unicode`` with that charset: the same text).
    """

    body: bytes
    encoding: str

    def decode(self) -> str:
        """The text, as Scrapy decodes it (the middleware replaced a response whose named
        encoding cannot decode a document before it got here)."""
        from w3lib.encoding import html_to_unicode

        return html_to_unicode(f"charset={self.encoding}", self.body)[1]


class HttpBody(NamedTuple):
    """A response body as an archive stores it, with its HTTP ``Content-Type`` header (or
    None): the engine decodes it, the header's charset first (``Extractor.extract``'s
    ``content_type``)."""

    body: bytes
    content_type: str | None


def extract_to_dict(
    extractor: Extractor,
    html: Any,
    url: str | None,
    timeout: float | None = None,
    formats: tuple[str, ...] = (),
    site_memory: SiteMemory | None = None,
) -> dict[str, Any]:
    """Extract one page and return the result kept in ``meta["boilerplate_result"]``
    (``timeout``: the extraction's time budget, ``formats`` the renderings to add, see
    ``Extractor.extract``, ``"metadata"`` for the article's metadata, ``"comments"``
    for the readers' comments and ``"annotated"`` for the page's annotated view, made from
    the same, traced, extraction: ``Extraction.annotated``; ``site_memory``: the crawl's
    memory of each site's template, see ``Extractor.extract``).

    ``html`` is a str, bytes, an :class:`EncodedPage` or :class:`HttpBody` (for worker
    processes) or (in threads only) a zero-argument callable returning a str, so that
    decoding a response happens in the worker. The DOM is built and dropped here; only
    plain data goes back.
    """
    start = time.perf_counter()
    content_type = None
    if isinstance(html, EncodedPage):
        html = html.decode()
    elif isinstance(html, HttpBody):
        html, content_type = html
    elif callable(html):
        html = html()
    annotated = "annotated" in formats
    extraction = extractor.extract(
        html,
        url,
        content_type=content_type,
        timeout=timeout,
        formats=tuple(f for f in formats if f in FORMATS),
        metadata="metadata" in formats,
        comments="comments" in formats,
        trace=annotated,  # the view's tooltips name the deciding filters
        site_memory=site_memory,
    )
    # (a failure of the view costs the page nothing but the view: a warning says why)
    view = _besides_text(extraction, "annotated", extraction.annotated) if annotated else None
    extraction.timings["total_ms"] = round((time.perf_counter() - start) * 1000, 3)
    result = extraction.to_dict()
    if annotated:
        result["annotated"] = view or ""
    return result


# The extractors a worker process has unpickled, by their pickle (bounded: a crawl uses a
# handful, one per spider, domain or meta override)
_UNPICKLED: dict[bytes, Extractor] = {}
_MAX_UNPICKLED = 64


def _unpickled(pickled_extractor: bytes) -> Extractor:
    extractor = _UNPICKLED.get(pickled_extractor)
    if extractor is None:
        if len(_UNPICKLED) >= _MAX_UNPICKLED:
            _UNPICKLED.clear()
        extractor = _UNPICKLED[pickled_extractor] = pickle.loads(pickled_extractor)
    return extractor


# The worker process's memory of each site's template (one per process: the pages of a
# site that reach this worker teach it)
_SITE_MEMORY: SiteMemory | None = None


def process_site_memory(max_sites: int) -> SiteMemory | None:
    """This process's :class:`SiteMemory` of ``max_sites`` sites (0: None, no memory)."""
    global _SITE_MEMORY
    if max_sites <= 0:
        return None
    if _SITE_MEMORY is None or _SITE_MEMORY.max_sites != max_sites:
        _SITE_MEMORY = SiteMemory(max_sites)
    return _SITE_MEMORY


def extract_pickled(
    pickled_extractor: bytes,
    html: Any,
    url: str | None,
    timeout: float | None = None,
    formats: tuple[str, ...] = (),
    site_memory: int = 0,
) -> dict[str, Any]:
    """:func:`extract_to_dict` with the extractor given as its pickle, which is unpickled
    once per process: the crawl then pickles each extractor once, not once per page (the
    crawl process is the busier one). ``site_memory``: the sites the process's
    :class:`SiteMemory` remembers (0: none)."""
    return extract_to_dict(
        _unpickled(pickled_extractor), html, url, timeout, formats,
        process_site_memory(site_memory),
    )  # fmt: skip


def extract_pickled_many(
    pickled_extractor: bytes,
    pages: list[tuple[Any, str | None]],
    timeout: float | None = None,
    formats: tuple[str, ...] = (),
    site_memory: int = 0,
) -> list[dict[str, Any] | Exception]:
    """:func:`extract_pickled` over several ``(html, url)`` pages in one call (fewer,
    larger messages for a batch); a page whose extraction raised gives its exception in
    its place."""
    extractor = _unpickled(pickled_extractor)
    memory = process_site_memory(site_memory)
    results: list[dict[str, Any] | Exception] = []
    for html, url in pages:
        try:
            results.append(extract_to_dict(extractor, html, url, timeout, formats, memory))
        except Exception as exc:  # noqa: BLE001 - the caller makes it the page's result
            results.append(exc)
    return results
