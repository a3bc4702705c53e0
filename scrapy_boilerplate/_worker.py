"""The function the Scrapy layer runs in worker threads or processes.

It imports no Scrapy, so that worker processes (``BOILERPLATE_EXECUTOR = "process"``)
start quickly: they only load the engine.
"""

from __future__ import annotations

import time
from typing import Any

from .extraction import Extractor

__all__ = ["extract_to_dict"]


def extract_to_dict(
    extractor: Extractor, html: Any, url: str | None, output_format: str = "text"
) -> dict[str, Any]:
    """Extract one page and return the small result dict kept in ``meta["boilerplate"]``.

    ``html`` is a str, bytes, or (in threads only) a zero-argument callable returning one
    of them, so that decoding a Scrapy response happens in the worker. The DOM is built and
    dropped here; only plain data goes back.
    """
    start = time.perf_counter()
    if callable(html):
        html = html()
    extraction = extractor.extract(html, url)
    result = extraction.to_dict()
    result["ms"] = round((time.perf_counter() - start) * 1000, 3)
    result["skipped"] = False
    if output_format != "text":
        result["output_format"] = output_format
    return result
