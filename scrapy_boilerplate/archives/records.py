"""What archive readers yield: a page to extract, or a record skipped for a reason.

Every response record of an archive becomes exactly one of the two, so a run can account
for each: pages give one result each, skips are counted by reason.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = [
    "ArchivedPage",
    "Skipped",
    "is_html_type",
    "NON_HTML",
    "TRUNCATED",
    "BROKEN_GZIP",
    "INVALID_RECORD",
    "INVALID_HTTP",
    "INCOMPLETE_ENTRY",
    "UNREADABLE",
    "BODY_LIMIT",
]

# the reasons a record is skipped
NON_HTML = "non_html"  #: a response whose content type is not HTML
TRUNCATED = "truncated"  #: a record with fewer bytes than its Content-Length (a cut file)
BROKEN_GZIP = "broken_gzip"  #: a gzip member that does not decompress (skipped to the next)
INVALID_RECORD = "invalid_record"  #: bytes that do not parse as WARC (skipped to the next)
INVALID_HTTP = "invalid_http"  #: a response record whose HTTP headers do not parse
INCOMPLETE_ENTRY = "incomplete_entry"  #: an HTTP-cache entry without its body or headers
UNREADABLE = "unreadable"  #: an archive that cannot be opened or read at all

#: a page's warning: its body was longer than ``encoding.MAX_PAGE_BYTES`` (unpacked) and
#: only that much was read
BODY_LIMIT = "body_limit"

#: content types extracted; a response without one is tried (the engine sniffs binary)
HTML_TYPES = frozenset({"text/html", "application/xhtml+xml"})


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
