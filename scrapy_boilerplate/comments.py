"""Readers' comments as their own text: the ``comments`` field.

The comment threads are the page's comment sections, as the comment-section filter knows
them (:func:`~scrapy_boilerplate.filters.comments.is_comment_section`: WordPress
``commentlist``, ``#comments``, Disqus, ...), whatever the chain decided about their
blocks: a chain may drop a thread, or fuse its blocks away. So the blocks are taken as
parsed, before the chain (a :class:`BlockSnapshot`), and the chain's content only says
which section is a wrapper of the article rather than a thread.

Left out of a thread: reply forms (``#respond``, ``comment-form``) and form fields, blocks
that are mostly links ("Reply", "Permalink", pagination), and threads of fewer than
``MIN_WORDS`` words in all ("0 comments", "Leave a comment").
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from lxml import etree

from .document import Document
from .filters.comments import is_comment_section, nearest_decision

__all__ = ["MIN_WORDS", "BlockSnapshot", "comment_text", "snapshot"]

#: fewer words than this in all the threads of a page is no thread ("3 comments", "Leave
#: a comment", a login prompt)
MIN_WORDS = 15
#: blocks with more of their words in links than this are navigation ("Reply", "Permalink")
MAX_LINK_DENSITY = 0.5
#: a section holding more of the chain's content words than this share is the article's
#: wrapper (``<article class="post has-comments">``), not a thread
MAX_CONTENT_SHARE = 0.5
#: never comment text: the reply form and what cannot hold a comment
_FORM_TAGS = frozenset("form textarea input select button script style noscript".split())
_REPLY_FORM_WORDS = ("respond", "reply-form", "comment-form", "commentform", "reply-title")


@dataclass(frozen=True, slots=True)
class BlockSnapshot:
    """A block as parsed: its first element, text (as the page shows it), words and link
    density (the chain may merge or relabel the block itself)."""

    element: Any
    text: str
    num_words: int
    link_density: float


def snapshot(doc: Document) -> list[BlockSnapshot]:
    """The document's blocks as they are now (take it before the chain runs)."""
    return [
        BlockSnapshot(block.element, block.shown_text, block.num_words, block.link_density)
        for block in doc.blocks
    ]


def comment_text(doc: Document, parsed: list[BlockSnapshot]) -> str:
    """The text of the page's readers' comments, one block per line; "" when the page has
    none (or fewer than ``MIN_WORDS`` words of them).

    ``doc`` is the document after the chain (its content blocks mark the article);
    ``parsed`` its blocks as parsed (:func:`snapshot`).
    """
    if doc.root is None:
        return ""
    threads, reply_forms = _threads(doc)
    if not threads:
        return ""
    inside: dict[Any, bool] = {}
    kept = [
        block
        for block in parsed
        if block.element is not None
        and block.link_density <= MAX_LINK_DENSITY
        and _in_thread(block.element, threads, reply_forms, inside)
    ]
    if sum(block.num_words for block in kept) < MIN_WORDS:
        return ""
    return "\n".join(block.text for block in kept)


def _threads(doc: Document) -> tuple[set[Any], set[Any]]:
    """The outermost comment sections that are neither the article's wrapper nor a reply
    form, and the reply forms (left out wherever they are). One walk over the tree (forms
    not entered) counts the chain's content words below each section: the words counted
    between its start and its end."""
    content_words: dict[Any, int] = {}
    total = 0
    for block in doc.blocks:
        if block.is_content and block.element is not None:
            content_words[block.element] = content_words.get(block.element, 0) + block.num_words
            total += block.num_words
    counted = 0  # content words of the elements started so far
    position = 0  # elements started so far
    open_sections: dict[Any, tuple[int, int]] = {}  # section -> (counted, position) at start
    candidates: list[tuple[int, int, Any]] = []  # (first, last position, section)
    reply_forms: set[Any] = set()
    walker = etree.iterwalk(doc.root, events=("start", "end"))
    for event, element in walker:
        if event == "end":
            started = open_sections.pop(element, None)
            if started is not None and counted - started[0] <= MAX_CONTENT_SHARE * total:
                candidates.append((started[1], position, element))
            continue
        tag = element.tag
        if not isinstance(tag, str):
            continue
        if tag in _FORM_TAGS:
            walker.skip_subtree()  # (its end event still comes)
            continue
        position += 1
        counted += content_words.get(element, 0)
        if is_comment_section(element):
            names = f"{element.get('id') or ''} {element.get('class') or ''}".lower()
            if any(word in names for word in _REPLY_FORM_WORDS):
                reply_forms.add(element)
            open_sections[element] = (counted - content_words.get(element, 0), position)
    # outermost first: a section inside a chosen one is already in it
    candidates.sort(key=lambda candidate: (candidate[0], -candidate[1]))
    threads = set()
    covered_until = 0
    for first, last, section in candidates:
        if first <= covered_until:
            continue
        covered_until = last
        if section not in reply_forms:
            threads.add(section)
    return threads, reply_forms


def _in_thread(
    element: Any, threads: set[Any], reply_forms: set[Any], inside: dict[Any, bool]
) -> bool:
    """Whether ``element`` lies in one of ``threads`` and not in a form or reply form."""

    def decide(node: Any) -> bool | None:
        if node in threads:
            return True
        if node.tag in _FORM_TAGS or node in reply_forms:
            return False
        return None

    return nearest_decision(element, inside, decide, default=False)
