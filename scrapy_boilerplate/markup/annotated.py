"""The whole page as a standalone HTML document with every block marked: the debug view
for finding out why a page went wrong (boilerpipe's ``HTMLHighlighter``, for any chain).

Each text of the page that belongs to a block (an element's own text and each of its
children's tails, each where the segmenter put it: ``tree.TextSlots``) is wrapped in a
``<span>``, green for
content and struck-through red for boilerplate, whose ``title`` names the block, the
filter that decided it (when the chain ran with ``trace``) and its labels; text in no
block (whitespace, a lone symbol) is left as it is. The page's structure is copied as
the content tree copies it (:mod:`.tree`: its tags and attributes only, links absolute,
at most ``MAX_DEPTH`` deep), and the result is sanitised by nh3 as the HTML output is:
no script, style, event handler or ``javascript:`` URL of the page survives, so the file
can be opened in a browser. One walk of the tree: linear in the page.
"""

from __future__ import annotations

from html import escape
from typing import Any

from lxml import etree

from ..document import Document, TextBlock
from .html import sanitised
from .tree import (
    KEPT_ATTRIBUTES,
    KEPT_TAGS,
    TextSlots,
    _base_url,
    _PendingText,
    copy_walk,
)

__all__ = ["annotated_html"]

CONTENT_CLASS, BOILERPLATE_CLASS = "sb-content", "sb-boilerplate"
_TAGS = set(KEPT_TAGS) | {"div", "span"}
_ATTRIBUTES = {tag: set(names) for tag, names in KEPT_ATTRIBUTES.items()}
_ATTRIBUTES["span"] = {"class", "title"}
_STYLE = """
body { font: 16px/1.5 sans-serif; max-width: 60em; margin: 1em auto; padding: 0 1em; }
.sb-legend { position: sticky; top: 0; background: #fff; border-bottom: 1px solid #999;
  padding: .5em 0; margin-bottom: 1em; }
.sb-content { background: #c8f0c8; }
.sb-boilerplate { background: #f6d0d0; color: #555; text-decoration: line-through; }
img { max-width: 100%; }
"""


def annotated_html(
    doc: Document | None, extractor: str | None = None, reason: str | None = None
) -> str:
    """The page of ``doc`` (after its chain ran) as a standalone, sanitised HTML document
    with each block's text marked content or boilerplate (see the module). ``reason``:
    why the result has no text, if it has none (shown; ``doc`` is None for a body that
    was never parsed, such as binary data)."""
    blocks = doc.blocks if doc is not None else []
    page = _annotated_tree(doc) if doc is not None else etree.Element("div")
    body = sanitised(page, _TAGS, _ATTRIBUTES)
    content = sum(1 for block in blocks if block.is_content)
    words = sum(block.num_words for block in blocks if block.is_content)
    title = (doc.title or doc.fallback_title or doc.url or "") if doc is not None else ""
    why = f" No main text: {escape(reason)}." if reason else ""
    legend = (
        f"{escape(extractor or 'chain')}: {content} of {len(blocks)} blocks content "
        f"({words} words).{why} <span class='{CONTENT_CLASS}'>content</span> "
        f"<span class='{BOILERPLATE_CLASS}'>boilerplate</span>; hover over a block for "
        "the filter that decided it."
    )
    return (
        "<!DOCTYPE html>\n<html><head><meta charset='utf-8'>"
        f"<title>{escape(title)} (annotated)</title><style>{_STYLE}</style></head>\n"
        f"<body><div class='sb-legend'>{legend}</div>\n{body}\n</body></html>\n"
    )


def _describe(index: int, block: TextBlock) -> str:
    kind = "content" if block.is_content else "boilerplate"
    parts = [f"block {index}: {kind}"]
    if block.decided_by:
        parts.append(f"decided by {block.decided_by}")
    else:  # no filter changed it (a block starts as boilerplate)
        parts.append("as parsed")
    if block.labels:
        parts.append("labels: " + ", ".join(sorted(block.labels)))
    parts.append(f"{block.num_words} words, link density {block.link_density:.2f}")
    return "; ".join(parts)


def _annotated_tree(doc: Document) -> Any:
    """A ``<div>`` holding the page's structure and every text, each block's text in a
    marked ``<span>`` (an iterative walk: pages nest deeper than Python's stack)."""
    out = etree.Element("div")
    if doc.root is None:
        return out
    # block -> its spans' attributes: the block's first span carries the title (a
    # paragraph of thousands of inline elements repeats no tooltip thousands of times)
    marks: dict[int, dict[str, str]] = {}
    for index, block in enumerate(doc.blocks):
        marks[id(block)] = {
            "class": CONTENT_CLASS if block.is_content else BOILERPLATE_CLASS,
            "title": _describe(index, block),
        }
    slots = TextSlots(doc)

    def add_text(target: Any, text: str | None, owner: Any, tail_of: Any) -> None:
        block = slots.block_of(owner, tail_of)
        _add_text(pending, target, text, None if block is None else marks[id(block)])

    pending = _PendingText()
    copy_walk(doc, out, pending, _base_url(doc), enter=lambda element: True, add_text=add_text)
    return out


def _add_text(
    pending: _PendingText, target: Any, text: str | None, mark: dict[str, str] | None
) -> None:
    if not text:
        return
    if mark is None or not text.strip():
        pending.add(target, text)
        return
    span = pending.child(target, "span", mark)
    mark.pop("title", None)  # the block's later spans: its class only
    pending.add(span, text)
