"""The model every method shares: a Document of TextBlocks, and the labels blocks carry.

A TextBlock is boilerpipe's unit: the text between two block boundaries of the page, with
its word statistics, its tag level, labels, the content flag the filters decide, and the
DOM elements its text came from (so that DOM-based methods can label blocks too).
"""

from __future__ import annotations

import struct
import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from .errors import ExtractionTimeout

__all__ = ["Document", "Label", "TextBlock", "float32"]

_F32 = struct.Struct("f")


def float32(value: float) -> float:
    """Round to the nearest single-precision float, as Java's ``float`` fields hold values.

    boilerpipe stores densities as ``float``; several rules compare them for equality or
    against thresholds, so the rounding is part of the reference behaviour. (A quotient of
    two integers below 2**24 rounds identically whether divided in float or in double.)
    """
    return _F32.unpack(_F32.pack(value))[0]


class Label:
    """Names of the labels filters put on blocks (boilerpipe's DefaultLabels, unprefixed)."""

    TITLE = "TITLE"
    ARTICLE_METADATA = "ARTICLE_METADATA"
    INDICATES_END_OF_TEXT = "INDICATES_END_OF_TEXT"
    MIGHT_BE_CONTENT = "MIGHT_BE_CONTENT"
    VERY_LIKELY_CONTENT = "VERY_LIKELY_CONTENT"
    STRICTLY_NOT_CONTENT = "STRICTLY_NOT_CONTENT"
    HR = "HR"
    LI = "LI"
    HEADING = "HEADING"
    H1 = "H1"
    H2 = "H2"
    H3 = "H3"
    #: inside a readers' comment section (CommentSectionFilter; not a boilerpipe label)
    USER_COMMENTS = "USER_COMMENTS"
    #: labels starting with this prefix describe markup (used by LabelFusion)
    MARKUP_PREFIX = "<"


def _extended(items: list[Any] | tuple[()], more: Iterable[Any]) -> list[Any]:
    """``items`` with ``more`` after them: extended in place if a list, else a new list."""
    out = items if isinstance(items, list) else []
    out.extend(more)
    return out


#: the schema.org types of pages whose threads are their content: a forum thread, a
#: question and its answers (:attr:`Document.discussion_declared`)
DISCUSSION_TYPES = ("DiscussionForumPosting", "QAPage")


class TextBlock:
    """A run of text between block boundaries, with boilerpipe's statistics.

    ``text_density`` is the number of words per 80-column line (the partial last line left
    out); ``link_density`` the share of words inside ``<a>``. Both are single-precision, as
    in the Java reference. ``offset_start``/``offset_end`` number the original blocks a
    (possibly merged) block spans; ``tag_level`` is the element depth of its first text.
    """

    __slots__ = (
        "_parts",
        "_text",
        "_shown",
        "num_words",
        "num_words_in_anchor_text",
        "num_words_in_wrapped_lines",
        "num_wrapped_lines",
        "text_density",
        "link_density",
        "offset_start",
        "offset_end",
        "tag_level",
        "labels",
        "is_content",
        "elements",
        "_text_of",
        "tail_of",
        "decided_by",
    )

    def __init__(
        self,
        text: str,
        num_words: int = 0,
        num_words_in_anchor_text: int = 0,
        num_words_in_wrapped_lines: int = 0,
        num_wrapped_lines: int = 0,
        offset: int = 0,
        tag_level: int = 0,
        labels: Iterable[str] = (),
        elements: Iterable[Any] = (),
        is_content: bool = False,
        text_of: Iterable[Any] | None = None,
        tail_of: Iterable[Any] = (),
    ) -> None:
        self._parts = [text]  # the texts of the original blocks merged into this one
        self._text: str | None = text
        # the parts as the page shows them, where one differs (see shown_text), else None
        self._shown: list[str] | None = None
        self.num_words = num_words
        self.num_words_in_anchor_text = num_words_in_anchor_text
        self.num_words_in_wrapped_lines = num_words_in_wrapped_lines
        self.num_wrapped_lines = num_wrapped_lines
        self.offset_start = offset
        self.offset_end = offset
        self.tag_level = tag_level
        self.labels: set[str] = set(labels)
        self.is_content = is_content
        #: the lxml elements whose direct text (``.text`` or a child's ``.tail``) is in
        #: this block, in document order
        self.elements: list[Any] = list(elements)
        #: the elements whose ``.tail`` is in this block (a tail is its parent's direct
        #: text), in document order; with ``text_of``, which of an element's texts is
        #: where, for the Markdown, HTML and annotated outputs (a ``<div>``'s text and its
        #: last child's tail can be in two blocks). Empty: the shared ``()`` (most
        #: blocks hold no tail, and a page can have 100,000s of blocks)
        self.tail_of: list[Any] | tuple[()] = list(tail_of) or ()
        # None: the same as ``elements`` (a block without tails; no second list)
        self._text_of: list[Any] | None = None if text_of is None else list(text_of)
        #: name of the last filter that changed ``is_content`` (set when tracing)
        self.decided_by: str | None = None
        if num_words:
            self._init_densities()
        else:
            self.num_words_in_wrapped_lines = 0
            self.num_wrapped_lines = 1
            self.text_density = self.link_density = 0.0

    @classmethod
    def from_parser(
        cls,
        text: str,
        stats: tuple[int, int, int, int],
        offset: int,
        tag_level: int,
        labels: set[str],
        elements: list[Any],
        shown: str | None = None,
        text_of: list[Any] | None = None,
        tail_of: list[Any] | tuple[()] = (),
    ) -> TextBlock:
        """A new block from the segmenter's values (no copies: the caller hands over
        ``labels`` and the element lists; ``shown``: the shown text where it is not the
        text).
        Faster than ``__init__`` on the hot path."""
        block = cls.__new__(cls)
        block._parts = [text]
        block._text = text
        block._shown = None if shown is None else [shown]
        num_words, linked, in_wrapped, lines = stats
        block.num_words = num_words
        block.num_words_in_anchor_text = linked
        block.num_words_in_wrapped_lines = in_wrapped
        block.num_wrapped_lines = lines
        block.offset_start = block.offset_end = offset
        block.tag_level = tag_level
        block.labels = labels
        block.is_content = False
        block.elements = elements
        block._text_of = text_of
        block.tail_of = tail_of
        block.decided_by = None
        if num_words:
            block._init_densities()
        else:
            block.text_density = block.link_density = 0.0
        return block

    def _init_densities(self) -> None:
        if self.num_words_in_wrapped_lines == 0:
            self.num_words_in_wrapped_lines = self.num_words
            self.num_wrapped_lines = 1
        lines = self.num_wrapped_lines
        # quotients are rounded as Java's float; whole numbers need no rounding
        self.text_density = (
            float(self.num_words_in_wrapped_lines)
            if lines == 1
            else float32(self.num_words_in_wrapped_lines / lines)
        )
        linked = self.num_words_in_anchor_text
        self.link_density = (
            0.0
            if linked == 0
            else 1.0
            if linked == self.num_words
            else float32(linked / self.num_words)
        )

    @property
    def text(self) -> str:
        """The block's text; merged blocks join their parts with newlines."""
        text = self._text
        if text is None:
            text = self._text = "\n".join(self._parts)
        return text

    @text.setter
    def text(self, value: str) -> None:
        self._parts = [value]
        self._text = value
        self._shown = None

    @property
    def shown_text(self) -> str:
        """The text as the page shows it. boilerpipe's text has a space at both edges of
        every link ("a link , then" for ``a <a>link</a>, then``) and of every ``<abbr>``
        and ``<acronym>``; the shown text has one there only where the page has
        whitespace ("a link, then"). Newlines between merged parts as in ``text``; the
        statistics and every filter read ``text``."""
        if self._shown is None:
            return self.text
        return "\n".join(self._shown)

    def hide_shown_text(self) -> None:
        """Make the shown text empty (text the page holds but never shows: the raw
        fallback of an ``<iframe>``); ``text`` and the statistics stay."""
        self._shown = [""] * len(self._parts)

    @property
    def element(self) -> Any:
        """The first DOM element this block's text came from (None for synthetic blocks)."""
        return self.elements[0] if self.elements else None

    @property
    def text_of(self) -> list[Any]:
        """The elements whose own ``.text`` is in this block, in document order (of
        ``elements``, those not there only for a child's tail)."""
        return self.elements if self._text_of is None else self._text_of

    def merge_next(self, other: TextBlock) -> None:
        """Absorb the following block, as boilerpipe's ``TextBlock.mergeNext`` does."""
        # texts are joined lazily: merging a run of n blocks stays linear
        if self._shown is not None or other._shown is not None:
            shown = self._shown if self._shown is not None else list(self._parts)
            shown.extend(other._shown if other._shown is not None else other._parts)
            self._shown = shown
        self._parts.extend(other._parts)
        self._text = None
        self.num_words += other.num_words
        self.num_words_in_anchor_text += other.num_words_in_anchor_text
        self.num_words_in_wrapped_lines += other.num_words_in_wrapped_lines
        self.num_wrapped_lines += other.num_wrapped_lines
        self.offset_start = min(self.offset_start, other.offset_start)
        self.offset_end = max(self.offset_end, other.offset_end)
        self._init_densities()
        self.is_content = self.is_content or other.is_content
        if self._text_of is not None or other._text_of is not None:
            if self._text_of is None:  # a list of its own from here on, taken before
                self._text_of = list(self.elements)  # the elements grow below
            self._text_of.extend(other.text_of)
        self.elements.extend(other.elements)
        if other.tail_of:
            self.tail_of = _extended(self.tail_of, other.tail_of)
        self.labels |= other.labels
        self.tag_level = min(self.tag_level, other.tag_level)

    def copy(self) -> TextBlock:
        """An independent copy (labels and element lists copied, elements shared)."""
        new = TextBlock.__new__(TextBlock)
        for name in TextBlock.__slots__:
            setattr(new, name, getattr(self, name))
        new._parts = list(self._parts)
        new._shown = None if self._shown is None else list(self._shown)
        new.labels = set(self.labels)
        new.elements = list(self.elements)
        new._text_of = None if self._text_of is None else list(self._text_of)
        new.tail_of = list(self.tail_of) or ()
        return new

    def has_label(self, label: str) -> bool:
        return label in self.labels

    def add_label(self, label: str) -> None:
        self.labels.add(label)

    def remove_label(self, label: str) -> bool:
        if label in self.labels:
            self.labels.remove(label)
            return True
        return False

    def set_content(self, is_content: bool) -> bool:
        """Set the content flag; return True if it changed (boilerpipe's ``setIsContent``)."""
        if is_content != self.is_content:
            self.is_content = is_content
            return True
        return False

    def stats(self) -> dict[str, Any]:
        """The block's statistics as plain values (for the JSON view and debugging)."""
        return {
            "num_words": self.num_words,
            "num_words_in_anchor_text": self.num_words_in_anchor_text,
            "num_words_in_wrapped_lines": self.num_words_in_wrapped_lines,
            "num_wrapped_lines": self.num_wrapped_lines,
            "text_density": self.text_density,
            "link_density": self.link_density,
            "tag_level": self.tag_level,
            "offset_start": self.offset_start,
            "offset_end": self.offset_end,
        }

    def __repr__(self) -> str:
        kind = "CONTENT" if self.is_content else "boilerplate"
        text = self.text if len(self.text) <= 40 else self.text[:37] + "..."
        return (
            f"<TextBlock [{self.offset_start}-{self.offset_end}] tl={self.tag_level}"
            f" nw={self.num_words} ld={self.link_density:.3f} {kind} {text!r}>"
        )


@dataclass(eq=False)
class Document:
    """A parsed page: its title, its ordered text blocks and the DOM they came from.

    Filters read and relabel ``blocks`` in place (and may merge or drop blocks); the DOM
    (``root``, an lxml element or None) is shared read-only.
    """

    blocks: list[TextBlock] = field(default_factory=list)
    title: str | None = None
    root: Any = None
    url: str | None = None
    #: notes from parsing, e.g. that the tree was cut at libxml2's depth limit
    warnings: list[str] = field(default_factory=list)
    #: when True, chains record in each block which filter decided it (``decided_by``)
    trace: bool = False
    #: when the time budget of the extraction ends (``time.monotonic()``), or None
    deadline: float | None = None
    #: the page's title when boilerpipe's walk found none in the head (the parser moved
    #: the <title> into the body): the result's title, not one the filters match against
    fallback_title: str | None = None
    #: whether words were counted with Chinese, Japanese and Thai characters as words
    #: (the extractor's ``cjk``): a filter that segments the page again counts the same way
    cjk: bool = True
    #: whether the page declares itself a discussion (a forum thread, a question and its
    #: answers: :func:`~scrapy_boilerplate.filters.comments.page_declares_discussion`),
    #: once known; None: not looked at yet. Parsing sets False where the markup holds
    #: neither schema.org name, which most pages do not (no search of the tree then)
    discussion_declared: bool | None = None
    #: the length of the page as decoded (characters, before a limit cut it): what a pass
    #: over the whole markup costs, where the text is a small part of it (a page whose
    #: attributes or ``data:`` addresses hold megabytes)
    markup_length: int = 0

    def check_deadline(self) -> None:
        """Raise :class:`~scrapy_boilerplate.errors.ExtractionTimeout` if the time budget
        is spent (a checkpoint: filters with long loops call it between their stages)."""
        if self.deadline is not None and time.monotonic() > self.deadline:
            raise ExtractionTimeout("the extraction ran past its time budget")

    def __iter__(self) -> Iterator[TextBlock]:
        return iter(self.blocks)

    def __len__(self) -> int:
        return len(self.blocks)

    @property
    def content_blocks(self) -> list[TextBlock]:
        return [b for b in self.blocks if b.is_content]

    def copy(self) -> Document:
        """A copy whose blocks can be relabelled and merged without touching this one (to
        run several chains over one parse). The DOM is shared."""
        return Document(
            blocks=[b.copy() for b in self.blocks],
            title=self.title,
            root=self.root,
            url=self.url,
            warnings=list(self.warnings),
            trace=self.trace,
            deadline=self.deadline,
            fallback_title=self.fallback_title,
            cjk=self.cjk,
            discussion_declared=self.discussion_declared,
            markup_length=self.markup_length,
        )

    def content(self) -> str:
        """The content blocks' texts, each followed by a newline (boilerpipe's getContent)."""
        return "".join(b.text + "\n" for b in self.blocks if b.is_content)
