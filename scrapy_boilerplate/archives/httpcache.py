"""Scrapy's HTTP cache (``HTTPCACHE_DIR`` with the default filesystem storage), read
without Scrapy and without unpickling anything.

The storage keeps one directory per request, ``<spider>/<fp[:2]>/<fp>/``, holding
``meta`` (the ``repr`` of a dict: url, method, status, response_url, timestamp),
``response_headers`` (raw HTTP headers) and ``response_body``, each gzipped when
``HTTPCACHE_GZIP`` was on. ``meta`` is read with ``ast.literal_eval``, never the pickled
copy beside it: a cache directory is data, and unpickling data runs code.
"""

from __future__ import annotations

import ast
import os
from collections.abc import Iterator
from datetime import datetime, timezone
from pathlib import Path

from w3lib.http import headers_raw_to_dict

from ..encoding import MAX_PAGE_BYTES, read_page_bytes
from .records import (
    BODY_LIMIT,
    INCOMPLETE_ENTRY,
    NON_HTML,
    UNREADABLE,
    ArchivedPage,
    Skipped,
    is_html_type,
)

__all__ = ["is_http_cache", "iter_http_cache"]

ENTRY_FILES = ("meta", "response_headers", "response_body")
#: Scrapy writes a meta of a few hundred bytes; a larger one is not its. Python's parser,
#: under ``literal_eval``, takes gigabytes for a list of millions of numbers (2.8 GB and
#: 12 s for 6 MB), and a run of thousands of unary operators overflows its stack
#: (``MemoryError``)
MAX_META_BYTES = 64 * 1024


def is_http_cache(path: str | os.PathLike[str]) -> bool:
    """Whether ``path`` is a cache directory: the cache, one spider's part of it, or one
    of its two-letter subdirectories (an entry is found within three levels)."""
    root = Path(path)
    return any(
        next(root.glob(pattern), None) is not None
        for pattern in ("*/*/*/meta", "*/*/meta", "*/meta")
    )


def iter_http_cache(path: str | os.PathLike[str]) -> Iterator[ArchivedPage | Skipped]:
    """Each cached response under ``path`` as a page or a skip, in sorted path order."""
    root = str(path)
    for directory, subdirs, files in os.walk(root, onerror=None):
        subdirs.sort()
        if "meta" in files or "response_body" in files:
            yield _entry(Path(directory), root)


def _entry(directory: Path, source: str) -> ArchivedPage | Skipped:
    try:
        raw_meta = read_page_bytes(directory / "meta", MAX_META_BYTES + 1)
        if len(raw_meta) > MAX_META_BYTES:
            return Skipped(
                UNREADABLE, source, detail=f"{directory}: meta over {MAX_META_BYTES} bytes"
            )
        meta = ast.literal_eval(raw_meta.decode("utf-8"))
        headers = headers_raw_to_dict(read_page_bytes(directory / "response_headers")) or {}
        body = read_page_bytes(directory / "response_body", MAX_PAGE_BYTES + 1)
    except FileNotFoundError as exc:
        return Skipped(
            INCOMPLETE_ENTRY, source, detail=f"{directory}: no {Path(exc.filename).name}"
        )
    except (OSError, EOFError, ValueError, SyntaxError, UnicodeDecodeError) as exc:
        return Skipped(UNREADABLE, source, detail=f"{directory}: {exc}")
    except (MemoryError, RecursionError):  # the parser's stack, on a crafted meta
        return Skipped(UNREADABLE, source, detail=f"{directory}: meta nested too deeply")
    if not isinstance(meta, dict):
        return Skipped(UNREADABLE, source, detail=f"{directory}: meta is not a dict")
    url = str(meta.get("response_url") or meta.get("url") or "")
    values = [v for k, vs in headers.items() if k.lower() == b"content-type" for v in vs]
    content_type = values[-1].decode("latin-1") if values else None
    if not is_html_type(content_type):
        return Skipped(NON_HTML, source, url, content_type)
    timestamp = meta.get("timestamp")
    date = (
        datetime.fromtimestamp(timestamp, tz=timezone.utc).isoformat()
        if isinstance(timestamp, (int, float))
        else None
    )
    status = meta.get("status")
    over = len(body) > MAX_PAGE_BYTES
    return ArchivedPage(
        url=url,
        body=body[:MAX_PAGE_BYTES] if over else body,
        content_type=content_type,
        record_id=directory.name,
        date=date,
        status=status if isinstance(status, int) else None,
        source=source,
        warnings=(BODY_LIMIT,) if over else (),
    )
