"""WARC and WARC.gz files, read with FastWARC (the ``[warc]`` extra).

Response (and resource) records with an HTML content type become pages; the body is the
HTTP payload with its transfer and content encodings undone, and the HTTP
``Content-Type`` goes with it, so that its charset decodes the page. Damage is skipped,
counted, never fatal: a record cut short, a gzip member that does not decompress, bytes
that are not WARC. After damage the reader finds the next gzip member (or, in an
uncompressed file, the next ``WARC/1.`` line) and goes on from there.
"""

from __future__ import annotations

import zlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any, BinaryIO

from ..encoding import MAX_PAGE_BYTES
from ..errors import BoilerplateError
from .records import (
    BODY_LIMIT,
    BROKEN_GZIP,
    INVALID_HTTP,
    INVALID_RECORD,
    NON_HTML,
    TRUNCATED,
    UNREADABLE,
    ArchivedPage,
    Skipped,
    is_html_type,
)

__all__ = ["ArchiveReaderUnavailable", "iter_warc", "unpacked"]

GZIP_MAGIC = b"\x1f\x8b\x08"
WARC_MAGIC = b"WARC/1."
_SCAN_CHUNK = 1 << 20


class ArchiveReaderUnavailable(BoilerplateError):
    """The library that reads this kind of archive is not installed (the message names
    the extra that brings it)."""


def _fastwarc() -> Any:
    try:
        import fastwarc.warc
    except ImportError as exc:
        raise ArchiveReaderUnavailable(
            "reading WARC files needs FastWARC: pip install 'scrapy-boilerplate-removal[warc]'"
        ) from exc
    return fastwarc.warc


def iter_warc(
    path: str | Path | BinaryIO, source: str | None = None
) -> Iterator[ArchivedPage | Skipped]:
    """Each response record of a WARC file as a page or a skip, in file order.

    ``path`` is a file name or a seekable binary stream (say, a file opened through
    fsspec); ``source`` names it in the results (default: the file name). Memory stays
    flat in the file size: one record at a time is in memory.
    """
    warc = _fastwarc()
    if not isinstance(path, (str, Path)):
        yield from _records(warc, path, source or getattr(path, "name", "<stream>"))
        return
    try:
        stream = open(path, "rb")  # noqa: SIM115 - closed by the with below
    except OSError as exc:
        yield Skipped(UNREADABLE, source or str(path), detail=str(exc))
        return
    with stream:
        yield from _records(warc, stream, source or str(path))


def _records(warc: Any, stream: BinaryIO, source: str) -> Iterator[ArchivedPage | Skipped]:
    start = stream.tell()  # where reading (re)starts: the stream's position, then past damage
    compressed = stream.read(2) == GZIP_MAGIC[:2]
    damage = BROKEN_GZIP if compressed else INVALID_RECORD
    in_damage = False  # failures with no record read between them are one damaged run
    while True:
        stream.seek(start)
        last = None
        try:
            for record in warc.ArchiveIterator(
                stream,
                record_types=warc.WarcRecordType.response | warc.WarcRecordType.resource,
                parse_http=False,
                fsspec_args=False,
            ):
                position = record.stream_pos
                last = position if position >= start else start + position
                in_damage = False
                yield _page(record, source)
            return
        except OSError as exc:
            if not in_damage:
                yield Skipped(damage, source, detail=str(exc))
            in_damage = True
            resume = _find(stream, (last if last is not None else start) + 1, compressed)
            if resume is None:
                return
            start = resume


def _page(record: Any, source: str) -> ArchivedPage | Skipped:
    headers = record.headers
    url = headers.get("WARC-Target-URI") or ""
    declared = headers.get("Content-Length")
    declared = int(declared) if declared is not None and declared.isdigit() else None
    # a record up to the page limit goes into memory whole, so that a file that ends inside
    # it is seen; a larger one (a video) is read no further than its headers, or, for an
    # HTML page, than the limit
    if declared is not None and declared <= MAX_PAGE_BYTES:
        record.freeze()
        if record.content_length < declared:
            return Skipped(TRUNCATED, source, url, f"{record.content_length} of {declared} bytes")
    status = None
    if record.is_http:
        try:
            # the transfer coding (chunked) only: the content coding is undone below, as far
            # as the page limit (FastWARC would unpack a gzip bomb whole)
            record.parse_http(auto_decode="transfer")
        except (OSError, ValueError) as exc:
            return Skipped(INVALID_HTTP, source, url, str(exc))
        http = record.http_headers
        status = http.status_code
        content_type = http.get("Content-Type") or headers.get("WARC-Identified-Payload-Type")
    elif headers.get("WARC-Type") == "resource":
        content_type = headers.get("Content-Type")
    else:  # a response record of another protocol (dns:, ...)
        return Skipped(NON_HTML, source, url, headers.get("Content-Type"))
    if not is_html_type(content_type):
        return Skipped(NON_HTML, source, url, content_type)
    warnings = ("warc_truncated",) if headers.get("WARC-Truncated") else ()
    coding = (record.http_headers.get("Content-Encoding") or "") if record.is_http else ""
    # at most the page limit of the stored payload, and of what it unpacks to
    payload = record.reader.read(MAX_PAGE_BYTES + 1)
    try:
        body = unpacked(payload, coding, MAX_PAGE_BYTES + 1)
    except (zlib.error, OSError, ValueError) as exc:
        return Skipped(INVALID_HTTP, source, url, f"content encoding {coding}: {exc}")
    if len(body) > MAX_PAGE_BYTES or len(payload) > MAX_PAGE_BYTES:
        body = body[:MAX_PAGE_BYTES]
        warnings += (BODY_LIMIT,)
    return ArchivedPage(
        url=url,
        body=body,
        content_type=content_type,
        record_id=headers.get("WARC-Record-ID"),
        date=headers.get("WARC-Date"),
        status=status,
        source=source,
        warnings=warnings,
    )


def unpacked(payload: bytes, coding: str, limit: int) -> bytes:
    """An HTTP payload with its content coding (gzip, deflate, br) undone, at most
    ``limit`` bytes of it; other codings are left as they are (the engine then finds
    binary, not text), cut at ``limit`` too. A broken stream raises ``zlib.error`` (gzip,
    deflate) or ``ValueError`` (br)."""
    coding = coding.strip().lower()
    if coding in ("gzip", "x-gzip", "deflate"):
        out = bytearray()
        data = payload
        while data and len(out) < limit:  # (a payload may hold several gzip members)
            unpacker, part = _inflate(data, limit - len(out))
            out += part
            data = unpacker.unused_data if unpacker.eof else b""
        return bytes(out)
    if coding == "br":
        try:
            import brotli
        except ImportError:  # left packed: binary to the engine
            return payload[:limit]
        try:
            return brotli.Decompressor().process(payload, output_buffer_limit=limit)[:limit]
        except brotli.error as exc:
            raise ValueError(f"brotli: {exc}") from exc
    return payload[:limit]


def _inflate(data: bytes, limit: int) -> tuple[Any, bytes]:
    # a gzip or zlib header (wbits 32 + 15 detects either), else raw deflate, as some
    # servers send "deflate"
    try:
        unpacker = zlib.decompressobj(47)
        return unpacker, unpacker.decompress(data, limit)
    except zlib.error:
        unpacker = zlib.decompressobj(-15)
        return unpacker, unpacker.decompress(data, limit)


def _find(stream: BinaryIO, offset: int, compressed: bool) -> int | None:
    """The offset of the next record boundary at or after ``offset``, or None: a gzip
    member's magic bytes, or ``WARC/1.`` at the start of a line. One linear scan."""
    marker = GZIP_MAGIC if compressed else WARC_MAGIC
    overlap = len(marker)  # a marker may straddle two chunks (and needs the byte before)
    stream.seek(max(offset - 1, 0))
    base = stream.tell()
    tail = b""
    while True:
        chunk = stream.read(_SCAN_CHUNK)
        if not chunk:
            return None
        window = tail + chunk
        window_base = base - len(tail)
        at = window.find(marker, max(offset - window_base, 0))
        while at != -1:
            absolute = window_base + at
            if compressed or absolute == 0 or window[at - 1 : at] == b"\n":
                if absolute >= offset:
                    return absolute
            at = window.find(marker, at + 1)
        base += len(chunk)
        tail = window[-overlap:]
