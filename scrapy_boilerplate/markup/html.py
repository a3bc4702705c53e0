"""The clean content tree as an HTML fragment, sanitised by nh3 (ammonia's rules).

The tree holds only allowed tags and attributes already, and links whose scheme is
plain; nh3 checks the serialised fragment again, with the same allow-list, so that a
mistake in the tree's construction cannot let a script, a style, an event handler or a
``javascript:``/``data:`` URL through.

nh3's parser (html5ever) takes time quadratic in the length of one run of text that holds
many characters it escapes or treats apart (``&``, ``&nbsp;``, ``©``, ...): a 1.6 MB
paragraph of non-breaking spaces took minutes. Runs longer than ``MAX_RUN`` characters are
cut by empty comments before the fragment goes to nh3, which drops them
(``strip_comments``): the output is the same, the time linear.
"""

from __future__ import annotations

import copy
from html import escape
from typing import Any

from lxml import etree

from .tree import KEPT_ATTRIBUTES, KEPT_TAGS, SAFE_SCHEMES

__all__ = ["render_html", "sanitised"]

_TAGS = set(KEPT_TAGS) | {"div"}
_ATTRIBUTES = {tag: set(names) for tag, names in KEPT_ATTRIBUTES.items()}
#: the longest run of text handed to nh3 without a comment in it
MAX_RUN = 2000


def render_html(tree: Any) -> str:
    """The tree's children as a sanitised HTML fragment ("" for an empty tree)."""
    if not len(tree) and not (tree.text or "").strip():
        return ""
    return sanitised(tree)


def sanitised(
    tree: Any, tags: set[str] = _TAGS, attributes: dict[str, set[str]] = _ATTRIBUTES
) -> str:
    """The tree (a ``<div>``, left as it is) serialised and cleaned by nh3 with this
    allow-list: one ``<div>``, links ``rel="noopener noreferrer nofollow"``."""
    import nh3

    if _has_long_run(tree):
        tree = _runs_cut(copy.deepcopy(tree))
    inner = escape(tree.text or "", quote=False)
    inner += "".join(etree.tostring(child, method="html", encoding="unicode") for child in tree)
    return nh3.clean(
        f"<div>{inner}</div>",
        tags=tags,
        attributes=attributes,
        url_schemes=set(SAFE_SCHEMES),
        link_rel="noopener noreferrer nofollow",
        strip_comments=True,
    )


def _has_long_run(tree: Any) -> bool:
    return any(
        len(element.text or "") > MAX_RUN or len(element.tail or "") > MAX_RUN
        for element in tree.iter()
    )


def _runs_cut(tree: Any) -> Any:
    """The tree with every text and tail longer than ``MAX_RUN`` cut by empty comments."""
    for element in list(tree.iter()):
        text = element.text or ""
        if len(text) > MAX_RUN:
            element.text = text[:MAX_RUN]
            first = etree.Comment("")  # the rest of the text goes after it
            element.insert(0, first)
            _cut_after(first, text[MAX_RUN:])
        tail = element.tail or ""
        if len(tail) > MAX_RUN and element is not tree:
            element.tail = tail[:MAX_RUN]
            _cut_after(element, tail[MAX_RUN:])
    return tree


def _cut_after(anchor: Any, rest: str) -> None:
    """``rest`` after ``anchor``, as the tails of empty comments, ``MAX_RUN`` characters
    each (an element keeps its own tail before the comment added next to it)."""
    for start in range(0, len(rest), MAX_RUN):
        cut = etree.Comment("")
        cut.tail = rest[start : start + MAX_RUN]
        anchor.addnext(cut)
        anchor = cut
