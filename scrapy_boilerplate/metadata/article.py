"""The article's metadata: for each field, the first usable candidate in order of trust
(JSON-LD, then microdata, OpenGraph / Dublin Core, plain meta tags; htmldate's search for
a publication date last), normalised to the types zyte-common-items' ``Article`` expects.

Missing values are absent, never guessed silently: a field no source declares is left
out, with two exceptions that say so in ``sources``: an undeclared ``datePublished`` is
searched for by htmldate (its extensive search: the markup, then dates in the text;
source ``htmldate``), and an undeclared ``headline`` is the page's only ``<h1>``
(``h1``) or else its ``<title>`` (``title``).
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from datetime import date, datetime
from typing import Any

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


def extract_metadata(doc: Document, source_html: Callable[[], str] | None = None) -> dict[str, Any]:
    """The article metadata of a parsed page, plus ``sources`` (field -> where found).

    ``source_html`` returns the page's decoded HTML for htmldate, which is run only when
    no source declares a publication date.
    """
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
        for source, found in gathered:
            for value in found.get(field, ()):
                normal = _NORMALISE[field](value, base)
                if normal not in (None, "", []):
                    out[field] = normal
                    origin[field] = source
                    break
            if field in out:
                break
    if "headline" not in out:
        _headline_from_page(doc, out, origin)
    out_of_time = doc.deadline is not None and time.monotonic() > doc.deadline
    if "datePublished" not in out and source_html is not None and not out_of_time:
        # (htmldate re-parses the page: not started once the time budget is spent)
        found_date = _htmldate(source_html, doc.url)
        if found_date:
            out["datePublished"], origin["datePublished"] = found_date, "htmldate"
    if out:
        out["sources"] = origin
    return out


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


def _htmldate(source_html: Callable[[], str], url: str | None) -> str | None:
    try:
        import htmldate

        # extensive: the markup, then dates in the text (the source says htmldate); the
        # original date, not an update
        # bytes, never str: htmldate downloads a str that looks like a URL, and a page's
        # whole text may be one
        found = htmldate.find_date(
            source_html().encode("utf-8"), url=url, extensive_search=True, original_date=True
        )
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
