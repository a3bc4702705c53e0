"""Candidate metadata values of a page, by source.

Each reader returns ``{field: [values...]}`` with the package's field names (those of
zyte-common-items' ``Article``). Readers never raise on a page's content: broken JSON-LD,
odd microdata or meta tags give no candidates, not an error.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from lxml import etree

from ..filters.comments import json_ld_scripts
from ..markup.tree import xml_safe

__all__ = [
    "from_json_ld",
    "from_meta_tags",
    "from_microdata",
    "from_opengraph_and_dc",
    "text_of",
]

Candidates = dict[str, list[Any]]

#: schema.org types that describe the page's article (or the page itself)
ARTICLE_TYPES = frozenset(
    "Article NewsArticle BlogPosting Report ScholarlyArticle TechArticle AnalysisNewsArticle "
    "OpinionNewsArticle ReportageNewsArticle ReviewNewsArticle LiveBlogPosting "
    "SocialMediaPosting Review Recipe WebPage ItemPage".split()
)
_SCHEMA_FIELDS = {
    "headline": ("headline", "name"),
    "description": ("description",),
    "authors": ("author", "creator"),
    "datePublished": ("datePublished", "dateCreated"),
    "dateModified": ("dateModified",),
    "inLanguage": ("inLanguage",),
    "mainImage": ("image", "thumbnailUrl"),
    "keywords": ("keywords",),
    "canonicalUrl": ("url", "mainEntityOfPage"),
}


def _add(found: Candidates, field: str, value: Any) -> None:
    if value not in (None, "", [], {}):
        found.setdefault(field, []).append(value)


def _types(item: dict[str, Any]) -> set[str]:
    value = item.get("@type") or item.get("type") or ()
    # a name or a list of names; anything else (a number, a mapping) names no type
    values = [value] if isinstance(value, str) else value if isinstance(value, list) else ()
    return {v.rsplit("/", 1)[-1] for v in values if isinstance(v, str)}


def _walk_json_ld(value: Any, depth: int = 0) -> Iterator[dict[str, Any]]:
    """Every JSON-LD object that has a type, ``@graph`` members included (bounded)."""
    if depth > 6:
        return
    if isinstance(value, list):
        for item in value[:200]:
            yield from _walk_json_ld(item, depth + 1)
    elif isinstance(value, dict):
        if "@type" in value:
            yield value
        if "@graph" in value:
            yield from _walk_json_ld(value["@graph"], depth + 1)


#: the characters of JSON-LD read per page, in all: a script is read if it fits in what
#: the scripts before it left (a longer one is skipped, a later shorter one may still
#: fit). Decoding costs 1.5 s per 20 MB, and a broken script goes to extruct's fallback,
#: a pure-Python pass (50 MB of broken scripts of 900 KB each took 7.3 s); the data sets'
#: 4,600 pages hold at most 153,095 characters of JSON-LD each
MAX_JSON_LD_CHARS = 1_000_000


def from_json_ld(root: Any) -> Candidates:
    """Article fields of the page's JSON-LD (article types first, then WebPage). Each
    script is read on its own: a broken one does not hide the others. The scripts read
    hold at most ``MAX_JSON_LD_CHARS`` characters in all; one that does not fit in what
    is left is left out."""
    from extruct.jsonld import JsonLdExtractor
    from lxml import html as lxml_html

    data: list[Any] = []
    left = MAX_JSON_LD_CHARS
    for script in json_ld_scripts(root):
        # (extruct reads a document: each script goes alone into a small one)
        if script.text is None or len(script.text) > left:
            continue
        left -= len(script.text)
        holder = lxml_html.Element("html")
        text = xml_safe(script.text)  # (lxml takes no control character)
        etree.SubElement(holder, "script", type="application/ld+json").text = text
        try:
            data.extend(JsonLdExtractor().extract_items(holder))
        except Exception:  # noqa: BLE001 - a broken script gives no candidates
            continue
    objects = list(_walk_json_ld(list(data)))
    items = [item for item in objects if _types(item) & ARTICLE_TYPES]
    # articles before pages: a page's name is its <title>, an article's headline is its own
    items.sort(key=lambda item: bool(_types(item) & {"WebPage", "ItemPage"}))
    found: Candidates = {}
    for item in items:
        for field, keys in _SCHEMA_FIELDS.items():
            for key in keys:
                _add(found, field, item.get(key))
        publisher = item.get("publisher")
        if isinstance(publisher, dict):
            _add(found, "siteName", publisher.get("name"))
    for item in objects:
        if "WebSite" in _types(item):
            _add(found, "siteName", item.get("name"))
    return found


#: OpenGraph properties -> fields
_OPENGRAPH_FIELDS = {
    "og:title": "headline",
    "og:description": "description",
    "og:url": "canonicalUrl",
    "og:site_name": "siteName",
    "og:image": "mainImage",
    "og:image:url": "mainImage",
    "og:image:secure_url": "mainImage",
    "og:locale": "inLanguage",
    "article:published_time": "datePublished",
    "article:modified_time": "dateModified",
    "og:updated_time": "dateModified",
    "article:author": "authors",
    "article:tag": "keywords",
}
#: Dublin Core element and term names -> fields
_DUBLIN_CORE_FIELDS = {
    "title": "headline",
    "description": "description",
    "creator": "authors",
    "date": "datePublished",
    "created": "datePublished",
    "issued": "datePublished",
    "modified": "dateModified",
    "language": "inLanguage",
    "subject": "keywords",
    "publisher": "siteName",
}


def from_opengraph_and_dc(root: Any) -> Candidates:
    """OpenGraph (``og:``, ``article:``) and Dublin Core properties, read by extruct from
    a copy of the page's ``<meta>`` and ``<link>`` elements (extruct's Dublin Core reader
    writes to the elements it reads: the page's own tree is left alone)."""
    from extruct.dublincore import DublinCoreExtractor
    from extruct.opengraph import OpenGraphExtractor

    try:
        document = _meta_document(root)
        opengraph = OpenGraphExtractor().extract_items(document)
        dublin_core = DublinCoreExtractor().extract_items(document)
    except Exception:  # noqa: BLE001 - a malformed head gives nothing
        return {}
    found: Candidates = {}
    for item in opengraph:
        for name, value in item.get("properties", ()):
            if name in _OPENGRAPH_FIELDS:
                _add(found, _OPENGRAPH_FIELDS[name], value)
    for item in dublin_core:
        for element in item.get("elements", ()) + item.get("terms", ()):
            full = str(element.get("name", "")).lower()
            prefix, _, name = full.replace(":", ".").rpartition(".")
            # extruct also reports plain <meta name="description">: a meta tag, not DC
            if prefix in ("dc", "dcterms") and name in _DUBLIN_CORE_FIELDS:
                _add(found, _DUBLIN_CORE_FIELDS[name], element.get("content"))
    return found


def _meta_document(root: Any) -> Any:
    """A small ``lxml.html`` document of the page's ``<meta>`` and ``<link>`` elements
    that OpenGraph and Dublin Core use: those of ``<head>`` in its head (OpenGraph reads
    only those), the others in its body, with the ``prefix`` attributes that declare
    OpenGraph namespaces."""
    from lxml import html as lxml_html

    document = lxml_html.Element("html", _prefix(root))
    head_source = root.find("head")
    head = etree.SubElement(document, "head", _prefix(head_source))
    body = etree.SubElement(document, "body")
    for element in root.iter("meta", "link"):
        if not _read_by_extruct(element):
            continue
        parent = element.getparent()
        inside_head = parent is not None and parent.tag == "head"
        attributes = {name: xml_safe(value) for name, value in element.attrib.items()}
        etree.SubElement(head if inside_head else body, element.tag, attributes)
    return document


def _read_by_extruct(element: Any) -> bool:
    """Whether extruct's OpenGraph or Dublin Core reader uses the element: a ``<meta
    property>``, a ``DC.*`` / ``DCTERMS.*`` meta tag, a ``schema.*`` link declaration."""
    if element.tag == "link":
        return "schema." in (element.get("rel") or "")
    return element.get("property") is not None or (element.get("name") or "")[:2].lower() == "dc"


def _prefix(element: Any) -> dict[str, str]:
    prefix = element.get("prefix") if element is not None else None
    return {"prefix": prefix} if prefix else {}


_META_NAMES = {
    "author": "authors",
    "article:author": "authors",
    "sailthru.author": "authors",
    "parsely-author": "authors",
    "byl": "authors",
    "description": "description",
    "twitter:description": "description",
    "twitter:title": "headline",
    "parsely-title": "headline",
    "sailthru.title": "headline",
    "keywords": "keywords",
    "news_keywords": "keywords",
    "article:published_time": "datePublished",
    "date": "datePublished",
    "pubdate": "datePublished",
    "publish-date": "datePublished",
    "parsely-pub-date": "datePublished",
    "sailthru.date": "datePublished",
    "article:modified_time": "dateModified",
    "last-modified": "dateModified",
    "twitter:image": "mainImage",
    "application-name": "siteName",
    "content-language": "inLanguage",
}


def from_meta_tags(root: Any) -> Candidates:
    """Plain ``<meta name=...>`` tags, ``<link rel=canonical>`` and ``<html lang>``."""
    found: Candidates = {}
    for meta in root.iter("meta"):
        name = (meta.get("name") or meta.get("property") or meta.get("http-equiv") or "").lower()
        field = _META_NAMES.get(name.strip())
        if field:
            _add(found, field, (meta.get("content") or "").strip())
    for link in root.iter("link"):
        rel = (link.get("rel") or "").lower().split()
        if "canonical" in rel:
            _add(found, "canonicalUrl", (link.get("href") or "").strip())
    _add(found, "inLanguage", (root.get("lang") or root.get("xml:lang") or "").strip())
    return found


#: (XPath runs in libxml2: the ElementPath equivalent walks the tree in Python)
_WITH_ITEMPROP = etree.XPath("//*[@itemprop]")
_MICRODATA_PROPS = {
    "headline": "headline",
    "datePublished": "datePublished",
    "dateModified": "dateModified",
    "description": "description",
    "inLanguage": "inLanguage",
}
#: values kept per field: the article takes the first usable one, the headline is chosen
#: among the first ten declarations
MAX_VALUES = 10
#: characters of an element's text kept for a value (what the article keeps of a text)
MAX_TEXT = 2000
#: raw characters read per character kept
RAW_READ = 8


def from_microdata(root: Any) -> Candidates:
    """schema.org microdata properties of the page (``itemprop``): the date attributes
    (``content``, ``datetime``), headlines and author names.

    Bounded: a page of thousands of nested ``itemprop`` elements costs a few reads of
    each element, not one read of its whole subtree per ancestor."""
    found: Candidates = {}
    for element in _WITH_ITEMPROP(root):
        props = (element.get("itemprop") or "").split()
        for prop in props:
            if prop in _MICRODATA_PROPS:
                field = _MICRODATA_PROPS[prop]
                if len(found.get(field, ())) >= MAX_VALUES:
                    continue
                value = element.get("content") or element.get("datetime")
                if value is None and prop in ("headline", "description"):
                    value = text_of(element)
                _add(found, field, value)
            elif prop == "author" and len(found.get("authors", ())) < MAX_VALUES:
                name = element.find(".//*[@itemprop='name']")
                source = name if name is not None else element
                _add(found, "authors", source.get("content") or text_of(source))
    return found


def text_of(element: Any, limit: int = MAX_TEXT) -> str:
    """The element's text, whitespace collapsed, at most ``limit`` characters: read up to
    ``RAW_READ`` times as many (markup indents text: most of a page's raw text may be
    whitespace), not the rest of a large subtree."""
    parts: list[str] = []
    length = 0
    for piece in element.itertext():
        parts.append(piece)
        length += len(piece)
        if length >= RAW_READ * limit:
            break
    return " ".join("".join(parts).split())[:limit]
