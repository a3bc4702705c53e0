"""Readers' comment threads: find them by their markup and take them out of the content.

Comment threads look like article text to every block classifier (full sentences, few
links), which is why users of extraction libraries keep asking for a dedicated filter
(trafilatura#850, readability#23, boilerpipe#16). Comment systems, though, name their
containers: WordPress ``<ol class="commentlist">`` and ``<div id="respond">``, Movable
Type ``<div id="comments">``, Disqus ``<div id="disqus_thread">``, and so on.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from typing import Any

from lxml import etree

from .._compiled import use_twin
from ..document import DISCUSSION_TYPES, Document, Label
from .base import Filter

__all__ = [
    "COMPILED",
    "CommentSectionFilter",
    "comment_sections",
    "comment_sections_python",
    "declares_discussion",
    "page_declares_discussion",
    "heading_ancestors",
    "is_comment_section",
    "json_ld_declares",
    "json_ld_scripts",
    "nearest_decision",
    "nested_sections",
]

#: a class or id token that names a comment container: one of the words, alone or as the
#: first word after an optional prefix ("post-comments", "comment-body", "disqus_thread");
#: camelCase is split first ("commentText" -> "comment-text"). "commentary" (an opinion
#: column) and "commented" do not match.
_COMMENT_TOKEN = re.compile(
    r"(?:[a-z]+[-_])?(?:comments?|commentlist|disqus[a-z]*|dsq|respond|replies|reply|talkback)"
    r"(?:[-_]|$)"
).match
_CAMEL = re.compile(r"([a-z])([A-Z])")
#: cheap first test: any value that can match holds one of these (most do not); the
#: compiled climb (``_ccomments.pyx``) looks for the same pieces
_MAYBE_PIECES = ("omment", "disqus", "dsq", "respond", "repl", "talkback")
_MAYBE = re.compile("|".join(_MAYBE_PIECES), re.IGNORECASE).search
#: elements that hold the whole page, never a comment section
_PAGE_TAGS = frozenset(("html", "body"))
#: schema.org types of pages whose threads are their content
_DISCUSSION = re.compile(r"\b(?:" + "|".join(DISCUSSION_TYPES) + r")\b")
#: the JSON-LD scripts and microdata types looked at (a bound: each is searched once)
MAX_DECLARATIONS = 50
_MICRODATA_TYPES = etree.XPath("//*[@itemtype]/@itemtype")


def is_comment_section(element: Any) -> bool:
    """True if the element's id or one of its classes names a comment container."""
    get = element.get  # comments and processing instructions have no attributes: None
    for value in (get("class"), get("id")):
        if value and _MAYBE(value):
            for token in _CAMEL.sub(r"\1-\2", value).lower().split():
                if _COMMENT_TOKEN(token):
                    return element.tag not in _PAGE_TAGS
    return False


def json_ld_scripts(root: Any) -> Iterator[Any]:
    """The page's JSON-LD scripts (``<script type="application/ld+json">``, the type
    compared without case or surrounding spaces), in document order."""
    for script in root.iter("script"):
        if (script.get("type") or "").strip().lower() == "application/ld+json":
            yield script


def json_ld_declares(root: Any, pattern: re.Pattern[str]) -> bool:
    """Whether one of the page's first ``MAX_DECLARATIONS`` JSON-LD scripts holds
    ``pattern``."""
    for n, script in enumerate(json_ld_scripts(root)):
        if n >= MAX_DECLARATIONS:
            return False
        if script.text and pattern.search(script.text):
            return True
    return False


def declares_discussion(root: Any) -> bool:
    """Whether the page declares itself a discussion (schema.org's
    ``DiscussionForumPosting`` or ``QAPage``: a forum thread, a question and its answers)
    in a JSON-LD script or a microdata ``itemtype``; the first ``MAX_DECLARATIONS`` of
    each are looked at."""
    if root is None:
        return False
    if json_ld_declares(root, _DISCUSSION):
        return True
    types = _MICRODATA_TYPES(root)[:MAX_DECLARATIONS]
    return any(_DISCUSSION.search(value) for value in types)


def page_declares_discussion(doc: Document) -> bool:
    """:func:`declares_discussion` of a document's tree, found once per document and kept
    in ``doc.discussion_declared`` (which parsing sets False on markup that names
    neither type)."""
    if doc.discussion_declared is None:
        doc.discussion_declared = declares_discussion(doc.root)
    return doc.discussion_declared


class CommentSectionFilter(Filter):
    """Content blocks inside a readers' comment section become boilerplate, labelled
    ``USER_COMMENTS``.

    A block's section is its nearest ancestor that :func:`is_comment_section` accepts.
    A section is dropped only if it holds at most ``max_share`` of the page's content
    words: an article wrapped in, say, ``<article class="post has-comments">`` is not a
    comment thread, and stays. A section whose ``id`` is one of ``thread_ids`` (by
    default WordPress's ``comments`` and Disqus's ``disqus_thread``: the names the
    comment systems themselves give their thread) is dropped whatever its share: a long
    thread under a short story is still a thread. With ``drop_nested``, so is a section
    that lies inside another comment section (:func:`nested_sections`): one comment of a
    thread, long as it may be (the post's author answering), is never the article's
    wrapper. With ``keep_discussions``, nothing is dropped on a page that declares itself
    a discussion (:func:`declares_discussion`: a forum thread, a question and its
    answers), whose threads are its content.
    """

    name = "comment_sections"

    def __init__(
        self,
        max_share: float = 0.5,
        wrapper_holds_heading: bool = False,
        thread_ids: tuple[str, ...] = ("comments", "disqus_thread"),
        keep_discussions: bool = True,
        drop_nested: bool = True,
    ) -> None:
        if not 0.0 <= max_share <= 1.0:
            raise ValueError(f"max_share must be within [0, 1], not {max_share!r}")
        self.max_share = max_share
        self.wrapper_holds_heading = wrapper_holds_heading
        self.thread_ids = tuple(thread_ids)
        self.keep_discussions = keep_discussions
        self.drop_nested = drop_nested

    def __call__(self, doc: Document) -> bool:
        sections = comment_sections([b.element if b.is_content else None for b in doc.blocks])
        words: dict[Any, int] = {}
        total = 0
        for block, section in zip(doc.blocks, sections, strict=True):
            if block.is_content:
                total += block.num_words
                if section is not None:
                    words[section] = words.get(section, 0) + block.num_words
        if not words:
            return False
        if self.keep_discussions and page_declares_discussion(doc):
            return False
        limit = self.max_share * total
        wrappers = None
        if self.wrapper_holds_heading and any(n > limit for n in words.values()):
            wrappers = heading_ancestors(doc.root)
        changed = False
        thread_ids = {name.lower() for name in self.thread_ids}
        threads = {section for section in words if (section.get("id") or "").lower() in thread_ids}
        if self.drop_nested:
            # only a section the share guard would keep needs the climb
            threads.update(nested_sections([s for s, n in words.items() if n > limit]))
        for block, section in zip(doc.blocks, sections, strict=True):
            if section is not None and (
                words[section] <= limit
                or section in threads
                or (wrappers is not None and section not in wrappers)
            ):
                block.add_label(Label.USER_COMMENTS)
                changed |= block.set_content(False)
        return changed


def nested_sections(sections: list[Any]) -> list[Any]:
    """Those of ``sections`` that lie inside another comment section: one comment of a
    thread (WordPress's ``<div id="div-comment-6310">`` in ``<ol class="commentlist">``),
    never the wrapper of an article. One climb per distinct ancestor for the whole list
    (:func:`comment_sections` of their parents)."""
    outer = comment_sections([section.getparent() for section in sections])
    return [section for section, above in zip(sections, outer, strict=True) if above is not None]


#: the page's first headings looked at (a bound: each costs one walk to the root)
MAX_HEADINGS = 5


def heading_ancestors(root: Any) -> set[Any]:
    """The elements that hold one of the page's first ``MAX_HEADINGS`` ``<h1>`` elements
    (each costs one walk to the root)."""
    held: set[Any] = set()
    if root is None:
        return held
    for n, heading in enumerate(root.iter("h1")):
        if n >= MAX_HEADINGS:
            break
        node = heading
        while node is not None and node not in held:
            held.add(node)
            node = node.getparent()
    return held


def comment_sections_python(elements: list[Any]) -> list[Any]:
    """For each of ``elements`` (None allowed), its nearest ancestor-or-self that
    :func:`is_comment_section` accepts, or None. Each distinct ancestor is looked at
    once for the whole list. ``filters/_ccomments.pyx`` is its compiled twin (it climbs
    libxml2's parent pointers and reads ``class`` and ``id`` in place, making an element
    only of the few whose attributes may name a comment container);
    ``comment_sections`` is whichever is in use."""
    # ancestors already looked at -> their section (or None); lxml elements are kept
    # alive as keys, so their identity is stable for the page
    section_of: dict[Any, Any] = {}

    def decide(node: Any) -> Any:
        return node if is_comment_section(node) else None

    return [
        None if element is None else nearest_decision(element, section_of, decide)
        for element in elements
    ]


def nearest_decision(
    element: Any, memo: dict[Any, Any], decide: Callable[[Any], Any], default: Any = None
) -> Any:
    """Walk from ``element`` up through its ancestors until ``decide(node)`` returns
    something other than None, and return that (``default`` at the root). Every element
    walked past is remembered in ``memo`` with the answer, so a page costs one walk per
    distinct ancestor, whatever its depth."""
    walked = []
    node = element
    found = default
    while node is not None:
        if node in memo:
            found = memo[node]
            break
        walked.append(node)
        decision = decide(node)
        if decision is not None:
            found = decision
            break
        node = node.getparent()
    for seen in walked:
        memo[seen] = found
    return found


comment_sections = comment_sections_python
#: whether the compiled climb (``_ccomments``) is in use
COMPILED = use_twin(globals(), "comment_sections")
