"""Bytes to text: the declared encoding if there is one, else a careful guess.

Order of evidence, as browsers and Scrapy use it: a byte-order mark, the HTTP
``Content-Type`` charset, a ``<meta>`` (or XML) declaration in the page, then detection.
Detection tries strict UTF-8 (most of the web) and falls back to Windows-1252, which maps
every byte, so decoding never fails: a page in a wrong or missing encoding comes out
garbled rather than raising.
"""

from __future__ import annotations

from w3lib.encoding import html_to_unicode

__all__ = ["decode_html"]


def _detect(body: bytes) -> str:
    try:
        body.decode("utf-8")
    except UnicodeDecodeError:
        return "cp1252"
    return "utf-8"


def decode_html(
    body: bytes, encoding: str | None = None, content_type: str | None = None
) -> tuple[str, str]:
    """Decode an HTML body; return ``(text, encoding_used)``.

    ``encoding`` overrides everything (use it when the caller already knows, e.g. a
    dataset stored as UTF-8); ``content_type`` is the HTTP header value, if any.
    """
    if encoding:
        try:
            return body.decode(encoding, errors="replace"), encoding
        except LookupError:
            pass  # an unknown encoding name: fall back to the evidence in the page
    header = content_type or None
    used, text = html_to_unicode(header, body, default_encoding="utf-8", auto_detect_fun=_detect)
    return text, used
