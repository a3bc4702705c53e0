"""Which reader an archive path needs: WARC files by their name, Scrapy HTTP cache
directories by their layout."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

from .httpcache import is_http_cache, iter_http_cache
from .records import ArchivedPage, Skipped

__all__ = ["WARC_SUFFIXES", "is_archive", "iter_archive"]

WARC_SUFFIXES = (".warc", ".warc.gz")


def is_archive(path: str | os.PathLike[str]) -> bool:
    """Whether ``path`` is a WARC file (by its name) or a Scrapy HTTP cache directory."""
    p = Path(path)
    if p.name.lower().endswith(WARC_SUFFIXES):
        return True
    return p.is_dir() and is_http_cache(p)


def iter_archive(path: str | os.PathLike[str]) -> Iterator[ArchivedPage | Skipped]:
    """The pages and skips of one archive, streamed in the archive's order."""
    p = Path(path)
    if p.is_dir():
        return iter_http_cache(p)
    from .warc import iter_warc  # FastWARC is imported when a WARC is read

    return iter_warc(p)
