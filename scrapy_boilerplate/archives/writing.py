"""Write WARC files of HTML responses: for tests, benchmarks and a user's own fixtures
(FastWARC, the ``[warc]`` extra)."""

from __future__ import annotations

import gzip
import io
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from .warc import _fastwarc

__all__ = ["StoredResponse", "http_response", "record_bytes", "write_warc"]


@dataclass(frozen=True, slots=True)
class StoredResponse:
    """An HTTP response to store: its URL, body as sent (encoded as ``headers`` say),
    content type, status, further headers and the date it was fetched."""

    url: str
    body: bytes
    content_type: str | None = "text/html; charset=utf-8"
    status: int = 200
    date: str = "2026-01-01T00:00:00Z"
    headers: tuple[tuple[str, str], ...] = ()


def http_response(response: StoredResponse) -> bytes:
    """The response as HTTP/1.1 bytes: status line, headers, body."""
    head = f"HTTP/1.1 {response.status} OK\r\n"
    if response.content_type is not None:
        head += f"Content-Type: {response.content_type}\r\n"
    names = {name.lower() for name, _ in response.headers}
    if "transfer-encoding" not in names:
        head += f"Content-Length: {len(response.body)}\r\n"
    head += "".join(f"{name}: {value}\r\n" for name, value in response.headers)
    return (head + "\r\n").encode("latin-1") + response.body


def record_bytes(response: StoredResponse) -> bytes:
    """One uncompressed WARC response record for ``response`` (with its digests)."""
    warc = _fastwarc()
    record = warc.WarcRecord()
    record.init_headers(record_type=warc.WarcRecordType.response)
    record.headers["WARC-Target-URI"] = response.url
    record.headers["WARC-Date"] = response.date
    record.headers["Content-Type"] = "application/http; msgtype=response"
    record.set_bytes_content(http_response(response))
    buffer = io.BytesIO()
    record.write(buffer, checksum_data=True)
    return buffer.getvalue()


def write_warc(
    path: str | Path, responses: Iterable[StoredResponse], *, compress: bool = True
) -> int:
    """Write one WARC response record per response (one gzip member each when
    ``compress``, as Common Crawl does); return how many were written."""
    count = 0
    with open(path, "wb") as out:
        for response in responses:
            data = record_bytes(response)
            out.write(gzip.compress(data, compresslevel=6) if compress else data)
            count += 1
    return count
