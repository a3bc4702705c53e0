"""Bytes to text: the declared encoding if there is one, else a careful guess.

Order of evidence, as browsers and Scrapy use it: a byte-order mark, the HTTP
``Content-Type`` charset, a ``<meta>`` (or XML) declaration in the page, then detection.
Detection tries strict UTF-8 (most of the web) and falls back to Windows-1252, which maps
every byte, so decoding never fails: a page in a wrong or missing encoding comes out
garbled rather than raising.

Only encodings that decode documents are used: a page may name any codec Python knows,
``rot13``, ``base64`` or ``zlib`` among them (which do not decode bytes to text) or
``idna`` (which raises on ordinary bytes); such a name is ignored, as if the page declared
nothing.
"""

from __future__ import annotations

import codecs

from w3lib.encoding import html_body_declared_encoding, html_to_unicode, http_content_type_encoding

__all__ = ["decode_html", "is_document_encoding"]

# text codecs that still cannot decode a document (they raise on ordinary bytes)
_NOT_FOR_DOCUMENTS = frozenset(("idna", "punycode"))


def is_document_encoding(name: str) -> bool:
    """Whether ``name`` is a codec that decodes bytes of a document to text."""
    try:
        info = codecs.lookup(name)
    except LookupError:
        return False
    return getattr(info, "_is_text_encoding", True) and info.name not in _NOT_FOR_DOCUMENTS


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
    if encoding and is_document_encoding(encoding):
        return body.decode(encoding, errors="replace"), encoding
    # an unknown or unusable name falls back to the evidence in the page
    header = content_type or None
    if header is not None and not _usable(http_content_type_encoding(header)):
        header = None
    declared = html_body_declared_encoding(body)
    if header is None and declared is not None and not is_document_encoding(declared):
        # the page names a codec that cannot decode it: as if it named none (a BOM still
        # counts, as it does before any declaration)
        header = f"text/html; charset={_detect(body)}"
    try:
        used, text = html_to_unicode(
            header, body, default_encoding="utf-8", auto_detect_fun=_detect
        )
    except (LookupError, UnicodeError, ValueError, TypeError):  # a codec's own failure
        used = _detect(body)
        text = body.decode(used, errors="replace")
    return text, used


def _usable(name: str | None) -> bool:
    return name is None or is_document_encoding(name)
