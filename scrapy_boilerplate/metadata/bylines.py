"""Author names from the page's byline markup, for pages that declare none.

Three kinds of markup name an author, read in this order of trust:

1. an hCard author (the microformat most blog themes print): the ``fn`` (or
   ``nickname``) inside an element of class ``author`` or ``byline``;
2. a link ``<a rel="author">``;
3. an element whose class names a byline: a word of it (split at ``-``, ``_``
   and camelCase) is ``author``, ``byline``, ``writer``, ``autor``, ``auteur``... and
   none says it is something else about the author (``author-bio``, ``author-avatar``,
   ``comment-author``); the name is its first link's text ("By <a>Jane Doe</a>"), else
   its own.

Markup inside navigation, footers, sidebars (``<aside>``) and readers' comment sections is
not read. A name is one to four words without digits (up to three names joined by
"and", "&", ...), less a leading "By", "Posted by:", "von", "Text:"...; labels without
a name ("Author", "Written by") are no name. One byline is taken, from the most trusted
kind found (the article's normalisation splits "A and B" into two authors).
"""

from __future__ import annotations

import re
from typing import Any

from lxml import etree

from .._compiled import use_twin
from ..filters.comments import is_comment_section

__all__ = ["COMPILED", "candidates", "candidates_python", "from_bylines"]

#: words of a class that name a byline, and words that say the element is something
#: else about the author
_NAME_WORDS = frozenset("author authorname autor autore auteur byline writer".split())
_OTHER_WORDS = frozenset(
    "comment comments bio avatar image img photo pic picture thumb description desc "
    "about box label title".split()
)
_WORD_BREAK = re.compile(r"[-_]+|(?<=[a-z])(?=[A-Z])")
#: what a class that may name a byline or an hCard name holds, lowercased (a cheap first
#: test of every element's class: most have none of them)
_BYLINE_PIECES = ("author", "autor", "auteur", "byline", "writer", "fn", "nickname")
#: "By", "Posted by:", "Text von", "Interview:" ... before the name
_LEAD = re.compile(
    r"^(?:(?:posted|written|published|authored|recipe|story|text|article|post author|"
    r"erstellt|eingestellt|veröffentlicht|geschrieben|verfasst|publié|écrit|escrito|"
    r"publicado)\s+)?(?:by|von|par|por|door|av)\b\s*:?\s*"
    r"|^(?:text|interview|autor|autorin|author|auteur)\s*:\s*",
    re.IGNORECASE,
)
#: words a label without a name is made of ("Author", "Written by", "More posts")
_NOT_NAMES = frozenset(
    "author authors the written by published posted follow more posts all view profile "
    "about staff editor".split()
)
#: what joins several names in one declaration or byline ("A and B", "A; B", "A & B")
NAME_SEPARATOR = re.compile(r"\s*(?:;|\||\band\b|&|\bund\b|\bet\b)\s*")
MAX_NAMES = 3
_FURNITURE_TAGS = frozenset(("nav", "footer", "aside"))
#: candidates looked at, the elements a byline may hold, ancestors walked per candidate,
#: characters read per name: a page of a million nested ``class="author"`` elements
#: costs one walk of the tree and what a real page's bylines do
MAX_CANDIDATES = 200
MAX_BYLINE_ELEMENTS = 50
MAX_ANCESTORS = 50
MAX_NAME_READ = 400
HCARD, REL_AUTHOR, BYLINE_CLASS = 0, 1, 2


def from_bylines(root: Any) -> dict[str, list[str]]:
    """``{"authors": [name]}`` from the page's byline markup (see the module), or {}."""
    found: dict[int, str] = {}
    for element in candidates(root, MAX_CANDIDATES):
        kind = _kind(element)
        if kind is None or kind in found or not _small(element) or _in_page_furniture(element):
            continue
        name = _name_in(element) if kind == BYLINE_CLASS else _name(_text(element))
        if name:
            found[kind] = name
            if kind == HCARD:
                break
    return {"authors": [found[min(found)]]} if found else {}


def candidates_python(root: Any, limit: int) -> list[Any]:
    """The first ``limit`` elements worth a look, in document order: a class that may
    name a byline, or a link with a ``rel``. One walk of the tree, substring tests of
    each class (libxml2's XPath ``contains()`` per spelling costs three times as much, a
    regular expression twice). ``_cbylines.pyx`` is its compiled twin (the walk reads
    libxml2's nodes and makes elements only of what it returns); ``candidates`` is
    whichever is in use."""
    found: list[Any] = []
    if limit <= 0:
        return found
    for element in root.iter(etree.Element):
        value = (element.get("class") or "").lower()
        if any(piece in value for piece in _BYLINE_PIECES) or (
            element.tag == "a" and element.get("rel")
        ):
            found.append(element)
            if len(found) >= limit:
                break
    return found


candidates = candidates_python
#: whether the compiled walk (``_cbylines``) is in use
COMPILED = use_twin(globals(), "candidates")


def _kind(element: Any) -> int | None:
    """Which kind of byline markup the element is (the module's list), or None."""
    if element.tag == "a" and "author" in (element.get("rel") or "").lower().split():
        return REL_AUTHOR
    classes = (element.get("class") or "").split()
    if "fn" in classes or "nickname" in classes:
        parent = element.getparent()
        for _ in range(3):
            if parent is None:
                break
            if {"author", "byline"} & set((parent.get("class") or "").lower().split()):
                return HCARD
            parent = parent.getparent()
    for value in classes:
        words = {word.lower() for word in _WORD_BREAK.split(value) if word}
        if words & _NAME_WORDS and not words & _OTHER_WORDS:
            return BYLINE_CLASS
    return None


def _small(element: Any) -> bool:
    """Whether the element holds at most ``MAX_BYLINE_ELEMENTS`` elements (a byline is
    small; a page-wide ``<div class="author-page">`` is not one)."""
    for n, _ in enumerate(element.iter()):
        if n >= MAX_BYLINE_ELEMENTS:
            return False
    return True


def _in_page_furniture(element: Any) -> bool:
    """Whether the element sits in navigation, a footer, a sidebar or a comment section
    (within ``MAX_ANCESTORS`` ancestors)."""
    node = element
    for _ in range(MAX_ANCESTORS):
        if node is None:
            return False
        if node.tag in _FURNITURE_TAGS or is_comment_section(node):
            return True
        node = node.getparent()
    return False


def _name_in(element: Any) -> str | None:
    """The name a byline element gives: its first link that reads as one, else its
    text."""
    for link in element.iter("a"):
        name = _name(_text(link))
        if name:
            return name
    return _name(_text(element))


def _text(element: Any) -> str | None:
    """The element's text, pieces spaced apart ("By<a>Jane</a>" is "By Jane"), None if
    it is longer than a byline."""
    pieces: list[str] = []
    length = 0
    for piece in element.itertext():
        pieces.append(piece)
        length += len(piece)
        if length > MAX_NAME_READ:
            return None
    return " ".join(" ".join(pieces).split())


def _name(text: str | None) -> str | None:
    """A person's name in a byline's text (or up to three joined by "and", "&", ...),
    or None (see the module)."""
    if not text:
        return None
    name = _LEAD.sub("", text).strip(" ,|·-–:")
    names = NAME_SEPARATOR.split(name)
    if len(names) > MAX_NAMES or len(name) > 60 * MAX_NAMES or any(c.isdigit() for c in name):
        return None
    for part in names:
        words = part.split()
        if not 1 <= len(words) <= 4 or len(part) > 60:
            return None
        if all(word.lower().strip(".:") in _NOT_NAMES for word in words):
            return None
    return name
