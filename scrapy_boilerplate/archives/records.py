"""What archive readers yield: a page to extract, or a record skipped for a reason.

Every response record of an archive becomes exactly one of the two, so a run can account
for each: pages give one result each, skips are counted by reason.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

__all__ = [
    "ArchivedPage",
    "Skipped",
    "is_archive",
    "is_html_type",
    "iter_archive",
    "NON_HTML",
    "TRUNCATED",
    "BROKEN_GZIP",
    "INVALID_RECORD",
    "INVALID_HTTP",
    "INCOMPLETE_ENTRY",
    "UNREADABLE",
]

# the reasons a record is skipped
NON_HTML = "non_html"  #: a response whose content type is not HTML
TRUNCATED = "truncated"  #: a record with fewer bytes than its Content-Length (a cut file)
BROKEN_GZIP = "broken_gzip"  #: a gzip member that does not decompress (skipped to the next)
INVALID_RECORD = "invalid_record"  #: bytes that do not parse as WARC (skipped to the next)
INVALID_HTTP = "invalid_http"  #: a response record whose HTTP headers do not parse
INCOMPLETE_ENTRY = "incomplete_entry"  #: an HTTP-cache entry without its body or headers
UNREADABLE = "unreadable"  #: an archive that cannot be opened or read at all

#: content types extracted; a response without one is tried (the engine sniffs binary)
HTML_TYPES = frozenset({"text/html", "application/xhtml+xml"})

WARC_SUFFIXES = (".warc", ".warc.gz")


@dataclass(frozen=True, slots=True)
class ArchivedPage:
    """One stored HTML response: its body as stored and what the archive says of it.

    ``content_type`` is the HTTP ``Content-Type`` header (its charset decodes the body);
    ``record_id`` the WARC-Record-ID (or the HTTP cache's request fingerprint); ``date``
    when it was fetched, ISO 8601; ``source`` the archive it came from.
    """

    url: str
    body: bytes
    content_type: str | None
    record_id: str | None
    date: str | None
    status: int | None
    source: str
    warnings: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Skipped:
    """A record that gives no page, and why (one of the reason constants)."""

    reason: str
    source: str
    url: str | None = None
    detail: str | None = None


def is_html_type(content_type: str | None) -> bool:
    """Whether a response of this ``Content-Type`` is extracted (HTML, or not stated)."""
    if not content_type:
        return True
    return content_type.split(";", 1)[0].strip().lower() in HTML_TYPES


def is_archive(path: str | os.PathLike[str]) -> bool:
    """Whether ``path`` is a WARC file (by its name) or a Scrapy HTTP cache directory."""
    p = Path(path)
    if p.name.lower().endswith(WARC_SUFFIXES):
        return True
    from .httpcache import is_http_cache

    return p.is_dir() and is_http_cache(p)


def iter_archive(path: str | os.PathLike[str]) -> Iterator[ArchivedPage | Skipped]:
    """The pages and skips of one archive, streamed in the archive's order."""
    p = Path(path)
    if p.is_dir():
        from .httpcache import iter_http_cache

        return iter_http_cache(p)
    from .warc import iter_warc

    return iter_warc(p)
