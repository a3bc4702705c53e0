"""The clean content tree as an HTML fragment, sanitised by nh3 (ammonia's rules).

The tree holds only allowed tags and attributes already, and links whose scheme is
plain; nh3 checks the serialised fragment again, with the same allow-list, so that a
mistake in the tree's construction cannot let a script, a style, an event handler or a
``javascript:``/``data:`` URL through.
"""

from __future__ import annotations

from html import escape
from typing import Any

from lxml import etree

from .tree import KEPT_ATTRIBUTES, KEPT_TAGS, SAFE_SCHEMES

__all__ = ["render_html"]

_TAGS = set(KEPT_TAGS) | {"div"}
_ATTRIBUTES = {tag: set(names) for tag, names in KEPT_ATTRIBUTES.items()}


def render_html(tree: Any) -> str:
    """The tree's children as a sanitised HTML fragment ("" for an empty tree)."""
    import nh3

    if not len(tree) and not (tree.text or "").strip():
        return ""
    inner = escape(tree.text or "", quote=False)
    inner += "".join(etree.tostring(child, method="html", encoding="unicode") for child in tree)
    return nh3.clean(
        f"<div>{inner}</div>",
        tags=_TAGS,
        attributes=_ATTRIBUTES,
        url_schemes=set(SAFE_SCHEMES),
        link_rel="noopener noreferrer nofollow",
        strip_comments=True,
    )
