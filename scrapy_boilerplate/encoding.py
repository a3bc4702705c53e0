"""Bytes to text: the declared encoding if there is one, else a careful guess.

Order of evidence, as browsers and Scrapy use it: a byte-order mark, the HTTP
``Content-Type`` charset, a ``<meta>`` (or XML) declaration in the page, then detection.
Detection tries strict UTF-8 (most of the web), then charset_normalizer (which requests and
trafilatura use) for legacy encodings such as GBK, Shift_JIS or EUC-KR, and falls back to
Windows-1252, which maps every byte, so decoding never fails: a page in a wrong encoding
comes out garbled rather than raising.

Bytes that are not text at all (an image, a PDF, compressed or random data) are told apart
first (:func:`looks_binary`): they have no text to extract.

Only encodings that decode documents are used: a page may name any codec Python knows,
``rot13``, ``base64`` or ``zlib`` among them (which do not decode bytes to text) or
``idna`` (which raises on ordinary bytes); such a name is ignored, as if the page declared
nothing.
"""

from __future__ import annotations

import codecs
import gzip
import os
from typing import Any

import charset_normalizer
from w3lib.encoding import html_body_declared_encoding, html_to_unicode, http_content_type_encoding

__all__ = [
    "MAX_PAGE_BYTES",
    "declared_encoding",
    "decode_html",
    "decodes_document",
    "detect_encoding",
    "is_document_encoding",
    "looks_binary",
    "read_page_bytes",
]


#: the most bytes of one stored page read (decompressed): a 50 MB page is read whole, a
#: gzip bomb (a megabyte that unpacks to gigabytes) or a huge file is not held in memory;
#: the engine reads the first 50,000 tags of a page anyway
MAX_PAGE_BYTES = 64 * 1024 * 1024


def read_page_bytes(path: str | os.PathLike[str], limit: int = MAX_PAGE_BYTES) -> bytes:
    """The bytes of a stored file, gunzipped if they are gzip (whatever the file's name):
    pages of a folder or a data set, entries of Scrapy's HTTP cache. At most ``limit``
    bytes (decompressed), read and unpacked as far as that only."""
    with open(path, "rb") as stream:
        head = stream.read(2)
        if head != b"\x1f\x8b":
            return head + stream.read(max(limit - len(head), 0))
        stream.seek(0)
        with gzip.GzipFile(fileobj=stream) as unpacked:
            return unpacked.read(limit)


# text codecs that still cannot decode a document (they raise on ordinary bytes)
_NOT_FOR_DOCUMENTS = frozenset(("idna", "punycode"))


def is_document_encoding(name: str) -> bool:
    """Whether ``name`` is a codec that decodes bytes of a document to text."""
    try:
        info = codecs.lookup(name)
    except LookupError:
        return False
    return getattr(info, "_is_text_encoding", True) and info.name not in _NOT_FOR_DOCUMENTS


_WIDE = frozenset(("utf-16", "utf-16-le", "utf-16-be", "utf-32", "utf-32-le", "utf-32-be"))


def _is_wide(name: str) -> bool:
    return is_document_encoding(name) and codecs.lookup(name).name in _WIDE


def declared_encoding(content_type: str | None) -> str | None:
    """The encoding an HTTP ``Content-Type`` value names (``charset=``), or None."""
    return http_content_type_encoding(content_type) if content_type else None


def decodes_document(name: str, body: bytes) -> bool:
    """Whether the encoding ``name`` can be that of ``body``: a document encoding, and
    not UTF-16 or UTF-32 for bytes whose first kilobyte holds no NUL byte (ASCII markup
    in those encodings is half NULs). Pages declaring ``<meta charset="utf-16">`` in
    ASCII bytes are real, and browsers read them as UTF-8 (the HTML standard's rule
    for a declaration in the markup); decoded as declared, they are CJK-looking noise."""
    if not is_document_encoding(name):
        return False
    return codecs.lookup(name).name not in _WIDE or b"\x00" in body[:1024]


#: how much of an undeclared page the detector reads
DETECT_BYTES = 64 * 1024
#: formats whose bytes start so (images, PDF, archives, compressed data)
_BINARY_SIGNATURES = (
    b"%PDF-", b"\x89PNG", b"GIF87a", b"GIF89a", b"\xff\xd8\xff", b"PK\x03\x04", b"\x1f\x8b",
    b"BZh", b"\xfd7zXZ", b"7z\xbc\xaf", b"Rar!", b"\x00\x00\x01\x00", b"RIFF", b"OggS",
    b"ID3", b"\x7fELF", b"wOFF", b"wOF2", b"\x00asm",
)  # fmt: skip
# C0 control bytes that text does not hold (tab, line feed, form feed, carriage return and
# escape do occur in pages)
_CONTROL_BYTES = bytes(c for c in range(32) if c not in (9, 10, 12, 13, 27)) + b"\x7f"
_BOMS = (b"\xef\xbb\xbf", b"\xff\xfe", b"\xfe\xff")
#: the share of control bytes above which the first 4 KB are not text
BINARY_CONTROL_SHARE = 0.05


def looks_binary(body: bytes, declared: str | None = None) -> bool:
    """Whether ``body`` is not text: it starts like an image, a PDF, an archive or
    compressed data, or more than 5% of its first 4 KB are control bytes (random data has
    ~11%, pages none, or a stray few). ``declared``: the encoding the caller or the HTTP
    header names; in UTF-16 or UTF-32 (without a byte order mark) NULs are the text's."""
    if body.startswith(_BOMS):
        return False
    if body.startswith(_BINARY_SIGNATURES):
        return True
    head = body[:4096]
    if not head:
        return False
    if declared and _is_wide(declared) and decodes_document(declared, head):
        head = head.replace(b"\x00", b"")
    controls = len(head) - len(head.translate(None, _CONTROL_BYTES))
    return controls > BINARY_CONTROL_SHARE * len(head)


# What the detector is trusted with: multi-byte encodings of Chinese, Japanese and Korean
# when the text decodes cleanly in them (their byte sequences rarely do by chance), and
# single-byte encodings of other scripts than Latin when it also recognises a language in
# the text. Between the Latin single-byte encodings (cp1252, cp1250, latin-1, cp775...) it
# guesses from a few letters, often wrongly on a short page: those pages get cp1252, the
# web's most common, as before.
_MULTI_BYTE = frozenset(
    (
        "gb18030", "gbk", "gb2312", "hz", "big5", "big5hkscs", "cp950", "cp932", "shift_jis",
        "shift_jis_2004", "shift_jisx0213", "euc_jp", "euc_jis_2004", "euc_jisx0213",
        "euc_kr", "cp949", "iso2022_jp", "iso2022_kr",
    )
)  # fmt: skip
_NON_LATIN_SINGLE_BYTE = frozenset(
    (
        "cp1251", "koi8_r", "koi8_u", "iso8859_5", "mac_cyrillic", "cp866", "cp1253",
        "iso8859_7", "cp1255", "iso8859_8", "cp1256", "iso8859_6", "tis_620", "cp874",
        "iso8859_11",
    )
)  # fmt: skip
_MAX_CHAOS = 0.02  # of a multi-byte guess
_MIN_COHERENCE = 0.1  # of a single-byte guess


def _trusted(guess: Any) -> bool:
    if guess.encoding in _MULTI_BYTE:
        return guess.chaos <= _MAX_CHAOS or guess.coherence >= _MIN_COHERENCE
    return guess.encoding in _NON_LATIN_SINGLE_BYTE and guess.coherence >= _MIN_COHERENCE


def detect_encoding(body: bytes) -> str:
    """The encoding the engine reads an undeclared page in: UTF-8 if the body is valid
    UTF-8, else charset-normalizer's trusted guess from its first 64 KB, else cp1252."""
    return _detect(body)


def _detect(body: bytes) -> str:
    try:
        body.decode("utf-8")
    except UnicodeDecodeError:
        pass
    else:
        return "utf-8"
    best = charset_normalizer.from_bytes(body[:DETECT_BYTES]).best()
    if best is not None and _trusted(best) and is_document_encoding(best.encoding):
        return best.encoding
    return "cp1252"


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
    if header is not None and not _usable(http_content_type_encoding(header), body):
        header = None
    declared = html_body_declared_encoding(body)
    if header is None and declared is not None and not decodes_document(declared, body):
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


def _usable(name: str | None, body: bytes) -> bool:
    return name is None or decodes_document(name, body)
