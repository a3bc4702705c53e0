"""The article's metadata: for each field, the first usable candidate in order of trust
(JSON-LD, then microdata, OpenGraph / Dublin Core, plain meta tags), normalised to the
types zyte-common-items' ``Article`` expects.

The publication date is htmldate's (the URL, the head's meta tags, JSON-LD, then dates
in the markup and the text, as trafilatura reads it): where a page declares several
dates, htmldate's choice agrees more often with the date the page shows. When one of
the declared dates falls on htmldate's day, that declaration is kept, with its time
and its source; otherwise the day alone, with the source ``htmldate``. A page where
htmldate finds nothing gets the first declared date.

Missing values are absent, never guessed silently: a field no source declares is left
out, with two exceptions that say so in ``sources``: a publication date found by
htmldate alone (``htmldate``), and an undeclared ``headline``, which is the page's only
``<h1>`` (``h1``) or else its ``<title>`` (``title``).
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Iterator
from datetime import date, datetime
from typing import Any

from lxml import etree

from ..document import Document
from ..markup.tree import safe_url
from . import sources as read

__all__ = ["METADATA_FIELDS", "extract_metadata"]

#: the fields, named as in zyte-common-items' Article (``keywords`` and ``siteName``
#: are ours: Article has no such fields)
METADATA_FIELDS = (
    "headline",
    "description",
    "authors",
    "datePublished",
    "dateModified",
    "inLanguage",
    "canonicalUrl",
    "siteName",
    "mainImage",
    "keywords",
)
_LANGUAGE = re.compile(r"^[A-Za-z]{2,3}(?:[-_][A-Za-z0-9]{2,8})*$")
_BY = re.compile(r"^\s*(?:by|von|par|por|di|door|av)\s+", re.IGNORECASE)
_MAX_TEXT = 2000


def extract_metadata(doc: Document) -> dict[str, Any]:
    """The article metadata of a parsed page, plus ``sources`` (field -> where found)."""
    root = doc.root
    if root is None:
        return {}
    gathered = [
        ("json-ld", read.from_json_ld(root)),
        ("microdata", read.from_microdata(root)),
        ("opengraph", read.from_opengraph_and_dc(root)),
        ("meta", read.from_meta_tags(root)),
    ]
    base = doc.url
    out: dict[str, Any] = {}
    origin: dict[str, str] = {}
    for field in METADATA_FIELDS:
        for source, value in _candidates(gathered, field, base):
            out[field], origin[field] = value, source
            break
    if "headline" not in out:
        _headline_from_page(doc, out, origin)
    out_of_time = doc.deadline is not None and time.monotonic() > doc.deadline
    # (htmldate searches the page's text: not started once the time budget is spent)
    day = None if out_of_time else _htmldate(root, doc.url)
    if day is not None:
        same_day = (
            (source, value)
            for source, value in _candidates(gathered, "datePublished", base)
            if value[:10] == day
        )
        origin["datePublished"], out["datePublished"] = next(same_day, ("htmldate", day))
    if out:
        out["sources"] = origin
    return out


def _candidates(
    gathered: list[tuple[str, dict[str, list[Any]]]], field: str, base: str | None
) -> Iterator[tuple[str, Any]]:
    """A field's usable values, normalised, with their source, in order of trust."""
    for source, found in gathered:
        for value in found.get(field, ()):
            normal = _NORMALISE[field](value, base)
            if normal not in (None, "", []):
                yield source, normal


def _headline_from_page(doc: Document, out: dict[str, Any], origin: dict[str, str]) -> None:
    """No declared headline: the page's one ``<h1>``, else its ``<title>``; their source
    (``h1``, ``title``) says they were not declared as the headline."""
    headings = []
    for heading in doc.root.iter("h1"):
        text = " ".join("".join(heading.itertext()).split())
        if text:
            headings.append(text)
    if len(headings) == 1:
        out["headline"], origin["headline"] = headings[0][:_MAX_TEXT], "h1"
    elif doc.title or doc.fallback_title:
        title = " ".join((doc.title or doc.fallback_title or "").split())
        if title:
            out["headline"], origin["headline"] = title[:_MAX_TEXT], "title"


def _htmldate(root: Any, url: str | None) -> str | None:
    """htmldate's publication date (a day, ISO 8601) of the parsed page, or None."""
    try:
        import htmldate
        from lxml.html import HtmlElement

        # the parsed page itself (parse_html builds HtmlElement nodes; htmldate copies the
        # tree before it prunes it); else bytes: a str that looks like a URL is downloaded
        page = root if isinstance(root, HtmlElement) else etree.tostring(root)
        # extensive: the markup, then dates in the text; the original date, not an update
        found = htmldate.find_date(page, url=url, extensive_search=True, original_date=True)
    except Exception:  # noqa: BLE001 - htmldate's failure on a page is no date
        return None
    return _date(found, None)


def _string(value: Any, keys: tuple[str, ...]) -> str | None:
    """A declared value as one string: a JSON-LD object's first present ``keys``, a
    list's first item, or the string itself; None for anything else."""
    if isinstance(value, dict):
        value = next((value[key] for key in keys if value.get(key)), None)
    if isinstance(value, list):
        value = value[0] if value else None
    return value if isinstance(value, str) else None


def _text(value: Any, base: str | None = None) -> str | None:
    value = _string(value, ("@value", "name", "text"))
    if value is None:
        return None
    text = " ".join(value.split())
    return text[:_MAX_TEXT] or None


def _authors(value: Any, base: str | None = None) -> list[dict[str, str]]:
    values = value if isinstance(value, list) else [value]
    names: list[str] = []
    for item in values[:20]:
        if isinstance(item, dict):
            item = item.get("name") or item.get("@name")
        if not isinstance(item, str):
            continue
        item = " ".join(item.split())
        if item.startswith(("http://", "https://")):  # article:author is often a profile URL
            continue
        # "A, B and C" in one meta tag is several authors; "Doe, Jane" (two words) is one
        parts = re.split(r"\s*(?:;|\||\band\b|&|\bund\b|\bet\b)\s*", item)
        for part in parts:
            part = _BY.sub("", part).strip(" ,")
            if part and part not in names and len(part) <= 100:
                names.append(part)
    return [{"name": name} for name in names]


def _date(value: Any, base: str | None = None) -> str | None:
    """ISO 8601: a date and time as declared (offset kept), or a date alone."""
    text = _text(value)
    if not text:
        return None
    try:
        parsed = datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError:
        try:
            from dateutil import parser as dateutil_parser

            parsed = dateutil_parser.parse(text)
        except (ValueError, OverflowError, ImportError, TypeError):
            return None
    if not (1990 <= parsed.year <= date.today().year + 1):
        return None
    if len(text) == 10 and text[4] == "-":  # a date alone stays a date
        return parsed.date().isoformat()
    return parsed.isoformat()


def _language(value: Any, base: str | None = None) -> str | None:
    text = _text(value)
    if not text or not _LANGUAGE.match(text):
        return None
    return text.replace("_", "-").split("-")[0].lower()


def _url(value: Any, base: str | None = None) -> str | None:
    value = _string(value, ("url", "@id", "contentUrl"))
    if value is None:
        return None
    url = safe_url(value.strip(), base)
    return url if url and url.startswith(("http://", "https://")) else None


def _image(value: Any, base: str | None = None) -> dict[str, str] | None:
    url = _url(value, base)
    return {"url": url} if url else None


def _keywords(value: Any, base: str | None = None) -> list[str]:
    values = value if isinstance(value, list) else [value]
    words: list[str] = []
    for item in values[:50]:
        if not isinstance(item, str):
            continue
        for word in item.split(","):
            word = " ".join(word.split())
            if word and word not in words:
                words.append(word)
    return words[:50]


_NORMALISE: dict[str, Callable[[Any, str | None], Any]] = {
    "headline": _text,
    "description": _text,
    "authors": _authors,
    "datePublished": _date,
    "dateModified": _date,
    "inLanguage": _language,
    "canonicalUrl": _url,
    "siteName": _text,
    "mainImage": _image,
    "keywords": _keywords,
}
