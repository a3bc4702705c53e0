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
out, with three exceptions that say so in ``sources``: a publication date found by
htmldate alone (``htmldate``), undeclared ``authors`` named by the page's byline markup
(``byline``: :mod:`.bylines`), and an undeclared ``headline``, which is the page's only
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
from .bylines import NAME_SEPARATOR, from_bylines
from .date_budget import date_budget

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
_MAX_TEXT = read.MAX_TEXT  # what a text value keeps


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
    if next(_candidates(gathered, "authors", base), None) is None:
        # the byline markup names the author of a page that declares none
        gathered.append(("byline", from_bylines(root)))
    out: dict[str, Any] = {}
    origin: dict[str, str] = {}
    # every declared headline and publication date: both are chosen among them below
    headlines = list(_candidates(gathered, "headline", base))
    dates = list(_candidates(gathered, "datePublished", base))
    listed = {"headline": headlines, "datePublished": dates}
    for field in METADATA_FIELDS:
        found = listed[field] if field in listed else _candidates(gathered, field, base)
        for source, value in found:
            out[field], origin[field] = value, source
            break
    _choose_headline(doc, headlines, out, origin)
    out_of_time = doc.deadline is not None and time.monotonic() > doc.deadline
    # (htmldate may search the page's text and markup: not started once the time budget
    # is spent, nor on a page of more markup than any real page has)
    day = None
    if not out_of_time and doc.markup_length <= MAX_MARKUP_DATED:
        day = _htmldate(root, doc.url, _extensive_search(doc), doc.deadline)
    if day is not None:
        same_day = ((source, value) for source, value in dates if value[:10] == day)
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


def _choose_headline(
    doc: Document,
    declared: list[tuple[str, str]],
    out: dict[str, Any],
    origin: dict[str, str],
) -> None:
    """The headline readers see: the page's ``<h1>`` that best matches a declared
    headline or the ``<title>`` (declarations are often SEO variants, or carry the site's
    name: "Storm hits the coast | The Daily"), with the source of a declaration of the
    same text, else ``h1``; without one, the first declaration, else the page's only
    ``<h1>``, else the ``<title>``, each less a trailing site name."""
    headings = _headings(doc.root)
    title = " ".join((doc.title or doc.fallback_title or "").split())
    # compared without the site's name: "Storm | The Daily" would match a logo's <h1>
    references = [
        _words(_without_site_name(value))
        for value in [value for _, value in declared[:_MAX_REFERENCES]] + [title]
        if value
    ]
    best, best_score = None, 0.0
    for heading in headings:
        words = _words(heading)
        for reference in references:
            score = _word_overlap(words, reference)
            if score > best_score:
                best, best_score = heading, score
    if best is not None and best_score >= _MIN_HEADING_MATCH:
        # a declaration of the same text keeps its source; else the page's own heading
        same = (source for source, value in declared if value.lower() == best.lower())
        out["headline"], origin["headline"] = best, next(same, "h1")
    elif declared:
        origin["headline"], value = declared[0]
        out["headline"] = _without_site_name(value)
    elif len(headings) == 1:
        out["headline"], origin["headline"] = headings[0], "h1"
    elif title:
        out["headline"], origin["headline"] = _without_site_name(title)[:_MAX_TEXT], "title"


#: how many <h1> and declared headlines are compared (a page may have hundreds of <h1>)
_MAX_HEADINGS = 5
_MAX_REFERENCES = 10
#: the least word overlap (Jaccard) of an <h1> with a declaration to be the headline
_MIN_HEADING_MATCH = 0.3
_WORDS = re.compile(r"\w+")
#: "Headline | Site", "Headline - Site", "Headline — Site", "Headline · Site"
_SITE_SEPARATOR = re.compile(r"\s+[|\-–—:·»/]\s+")
#: a trailing piece of at most this many words is taken for the site's name
_MAX_SITE_NAME_WORDS = 4


def _headings(root: Any) -> list[str]:
    headings = []
    for heading in root.iter("h1"):
        text = read.text_of(heading)
        if text:
            headings.append(text)
            if len(headings) == _MAX_HEADINGS:
                break
    return headings


def _words(text: str) -> set[str]:
    return set(_WORDS.findall(text.lower()))


def _word_overlap(a: set[str], b: set[str]) -> float:
    """Jaccard overlap of two word sets."""
    return len(a & b) / len(a | b) if a and b else 0.0


def _without_site_name(text: str) -> str:
    """``text`` less a short trailing piece after a separator ("... | The Daily")."""
    pieces = _SITE_SEPARATOR.split(text)
    if len(pieces) == 2 and len(_WORDS.findall(pieces[1])) <= _MAX_SITE_NAME_WORDS:
        return pieces[0]
    return text


#: htmldate's last resort (its ``extensive_search``) looks for dates in the page's text,
#: then in its whole markup: about 0.3 s per MB of text and 0.4 s per MB of markup where
#: nothing earlier declared a date. It runs on pages of at most this many characters of
#: text (3.5 times the most of any page of the data sets) ...
MAX_TEXT_SEARCHED = 1_000_000
#: ... and of markup (the largest page of the data sets has 5.3 million): past either,
#: only the head, the dated elements and the URL are read. A crafted page of 50 MB whose
#: markup is one ``data:`` address took 18 s with the search, 1.4 s without
MAX_MARKUP_SEARCHED = 6_000_000
#: even without its last resort htmldate reads the whole markup a few times (about 0.05 s
#: per MB: 3 s for 64 MB): on pages of more markup than this it is not run, and the
#: declared dates are all there is
MAX_MARKUP_DATED = 16_000_000


def _extensive_search(doc: Document) -> bool:
    """Whether htmldate searches the page's text and markup (``MAX_TEXT_SEARCHED``,
    ``MAX_MARKUP_SEARCHED``)."""
    if doc.markup_length > MAX_MARKUP_SEARCHED:
        return False
    return sum(len(block.text) for block in doc.blocks) <= MAX_TEXT_SEARCHED


def _htmldate(
    root: Any, url: str | None, extensive: bool = True, deadline: float | None = None
) -> str | None:
    """htmldate's publication date (a day, ISO 8601) of the parsed page, or None; at
    most :data:`.date_budget.MAX_PARSES` of its strings go to dateparser, none past
    ``deadline`` (``time.monotonic()``)."""
    try:
        import htmldate
        from lxml.html import HtmlElement

        # the parsed page itself (parse_html builds HtmlElement nodes; htmldate copies the
        # tree before it prunes it); else bytes: a str that looks like a URL is downloaded
        page = root if isinstance(root, HtmlElement) else etree.tostring(root)
        # extensive: the markup, then dates in the text; the original date, not an update
        with date_budget(deadline=deadline):
            found = htmldate.find_date(
                page, url=url, extensive_search=extensive, original_date=True
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


#: at most this many authors and keywords are kept: a page may declare any number, and
#: each is checked against those kept (a set, so a crafted list costs linear time)
MAX_AUTHORS = 20
MAX_KEYWORDS = 50


def _authors(value: Any, base: str | None = None) -> list[dict[str, str]]:
    values = value if isinstance(value, list) else [value]
    names: dict[str, None] = {}  # insertion-ordered, and a set
    for item in values[:MAX_AUTHORS]:
        if isinstance(item, dict):
            item = item.get("name") or item.get("@name")
        if not isinstance(item, str):
            continue
        item = " ".join(item.split())
        if item.startswith(("http://", "https://")):  # article:author is often a profile URL
            continue
        # "A, B and C" in one meta tag is several authors; "Doe, Jane" (two words) is one
        for part in NAME_SEPARATOR.split(item):
            part = _BY.sub("", part).strip(" ,")
            if part and len(part) <= 100:
                names[part] = None
                if len(names) == MAX_AUTHORS:
                    return [{"name": name} for name in names]
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

            parsed = dateutil_parser.parse(text, tzinfos=_offset_only)
        except (ValueError, OverflowError, ImportError, TypeError):
            return None
    if not (1990 <= parsed.year <= date.today().year + 1):
        return None
    if len(text) == 10 and text[4] == "-":  # a date alone stays a date
        return parsed.date().isoformat()
    return parsed.isoformat()


def _offset_only(name: str | None, offset: int | None) -> Any:
    """dateutil's time zone for a parsed date: its numeric offset, if it has one, else
    none (a zone name alone, "CET" or the server's own, is not read: dateutil would warn
    on each unknown one, in every crawl's log)."""
    from dateutil import tz

    return tz.tzoffset(name, offset) if offset is not None else None


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
    words: dict[str, None] = {}  # insertion-ordered, and a set
    for item in values[:MAX_KEYWORDS]:
        if not isinstance(item, str):
            continue
        for word in item.split(","):
            word = " ".join(word.split())
            if word:
                words[word] = None
                if len(words) == MAX_KEYWORDS:
                    return list(words)
    return list(words)


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
