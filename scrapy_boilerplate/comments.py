"""Readers' comments as their own text: the ``comments`` field.

The comment threads are the page's comment sections, as the comment-section filter knows
them (:func:`~scrapy_boilerplate.filters.comments.is_comment_section`: WordPress
``commentlist``, ``#comments``, Disqus, ...), whatever the chain decided about their
blocks: a chain may drop a thread, fuse its blocks away, or read the page again from a
copy of its tree without them (the default's rescue of a short story under a long
thread). So the tree and its blocks are taken as parsed, before the chain (a
:class:`ParsedPage`), and the chain's content only says which section is a wrapper of
the article rather than a thread.

Left out of a thread: reply forms (``#respond``, ``comment-form``) and form fields, blocks
that are mostly links ("Reply", "Permalink", pagination), and threads of fewer than
``MIN_WORDS`` words in all ("0 comments", "Leave a comment").
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any

from lxml import etree

from .document import Document
from .filters.comments import is_comment_section, nearest_decision

__all__ = ["MIN_WORDS", "BlockSnapshot", "ParsedPage", "comment_text", "snapshot"]

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


@dataclass(frozen=True, slots=True)
class ParsedPage:
    """A document's tree and blocks as parsed (the chain may read a copy of the tree)."""

    root: Any
    blocks: list[BlockSnapshot]


def snapshot(doc: Document) -> ParsedPage:
    """The document's tree and blocks as they are now (take it before the chain runs)."""
    return ParsedPage(
        doc.root,
        [
            BlockSnapshot(block.element, block.shown_text, block.num_words, block.link_density)
            for block in doc.blocks
        ],
    )


def comment_text(doc: Document, parsed: ParsedPage) -> str:
    """The text of the page's readers' comments, one block per line; "" when the page has
    none (or fewer than ``MIN_WORDS`` words of them).

    ``doc`` is the document after the chain (its content blocks mark the article);
    ``parsed`` its tree and blocks as parsed (:func:`snapshot`).
    """
    if parsed.root is None:
        return ""
    threads, reply_forms = _threads(parsed.root, _content_words(doc, parsed))
    if not threads:
        return ""
    inside: dict[Any, bool] = {}
    kept = [
        block
        for block in parsed.blocks
        if block.element is not None
        and block.link_density <= MAX_LINK_DENSITY
        and _in_thread(block.element, threads, reply_forms, inside)
    ]
    if sum(block.num_words for block in kept) < MIN_WORDS:
        return ""
    return "\n".join(block.text for block in kept)


def _content_words(doc: Document, parsed: ParsedPage) -> dict[Any, int]:
    """The chain's content words per element of the parsed tree: by the content blocks'
    elements; where the chain read a changed copy of the tree instead (``doc.root`` is not
    the parsed root), by the parsed blocks whose text a content block has (each content
    block matched once), as the copy's elements are not the page's."""
    words: dict[Any, int] = {}
    if doc.root is parsed.root:
        found = ((b.element, b.num_words) for b in doc.blocks if b.is_content)
    else:
        texts = Counter(b.shown_text for b in doc.blocks if b.is_content)
        found = ((b.element, b.num_words) for b in parsed.blocks if _take(texts, b.text))
    for element, num_words in found:
        if element is not None:
            words[element] = words.get(element, 0) + num_words
    return words


def _take(counts: Counter[str], text: str) -> bool:
    """Take one ``text`` from ``counts``, if one is left."""
    if counts[text] <= 0:
        return False
    counts[text] -= 1
    return True


def _threads(root: Any, content_words: dict[Any, int]) -> tuple[set[Any], set[Any]]:
    """The outermost comment sections that are neither the article's wrapper nor a reply
    form, and the reply forms (left out wherever they are). One walk over the tree (forms
    not entered) counts the chain's content words below each section (``content_words``,
    per element): the words counted between its start and its end."""
    total = sum(content_words.values())
    counted = 0  # content words of the elements started so far
    position = 0  # elements started so far
    open_sections: dict[Any, tuple[int, int]] = {}  # section -> (counted, position) at start
    candidates: list[tuple[int, int, Any]] = []  # (first, last position, section)
    reply_forms: set[Any] = set()
    walker = etree.iterwalk(root, events=("start", "end"))
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
