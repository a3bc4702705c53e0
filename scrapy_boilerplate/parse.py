"""HTML to Document: one lxml parse, one iterative walk, boilerpipe's block segmentation.

The walk replays the tree as the SAX events NekoHTML gives boilerpipe's
``BoilerpipeHTMLContentHandler`` (start tag, text, end tag) and segments exactly as that
handler does:

* every tag that has no special action is a block boundary (``<br>`` and ``<img>`` too);
  a start tag only *requests* a flush, done when the next text arrives, while an end tag
  flushes at once;
* ``<script>``, ``<style>``, ``<option>``, ``<object>``, ``<embed>``, ``<applet>``,
  ``<link>`` and ``<noscript>`` are ignored; inline tags (``<b>``, ``<span>``, ...) are not
  boundaries; ``<a>`` puts marker tokens around its words to count link words;
* a block's tag level is the depth of its first text; its labels are those of every open
  element at flush time (LI, H1-H3 and HEADING, from boilerpipe's later tag map; the 1.2
  extractors never read them);
* text seen before ``<body>`` is dropped, except the ``<title>``, which becomes the title.

The walk is ``lxml.etree.iterwalk`` (no recursion), so any depth is safe; libxml2 itself
stops building the tree below 2048 levels, which is reported in ``Document.warnings``.
"""

from __future__ import annotations

from typing import Any

from lxml import etree

from .document import Document, Label, TextBlock
from .encoding import decode_html
from .words import (
    ANCHOR_END,
    ANCHOR_START,
    JAVA_WHITESPACE_TO_SPACE,
    count_words,
    java_trim,
)

__all__ = ["parse_html", "build_tree", "segment"]

# Tag actions of boilerpipe's DefaultTagActionMap (1.2.0), keyed by lower-case name.
_IGNORABLE = frozenset(("style", "script", "option", "object", "embed", "applet", "link", "noscript"))
_INLINE_NO_WHITESPACE = frozenset(
    ("strike", "u", "b", "i", "em", "strong", "span", "sup", "code", "tt", "sub", "var", "font")
)
_INLINE_WHITESPACE = frozenset(("abbr", "acronym"))
# Block tags that also label their text (boilerpipe 1.3's tag map; boundaries either way).
_BLOCK_LABELS: dict[str, tuple[str, ...]] = {
    "li": (Label.LI,),
    "h1": (Label.H1, Label.HEADING),
    "h2": (Label.H2, Label.HEADING),
    "h3": (Label.H3, Label.HEADING),
}

_IGNORE, _ANCHOR, _BODY, _INLINE, _INLINE_SPACE = range(5)
_ACTIONS: dict[str, int] = {
    **{t: _IGNORE for t in _IGNORABLE},
    "a": _ANCHOR,
    "body": _BODY,
    **{t: _INLINE for t in _INLINE_NO_WHITESPACE},
    **{t: _INLINE_SPACE for t in _INLINE_WHITESPACE},
}

_DEPTH_LIMIT_MESSAGE = "Excessive depth"


class _Segmenter:
    """boilerpipe's content handler, fed by a walk over an lxml tree."""

    def __init__(self, cjk: bool) -> None:
        self.cjk = cjk
        self.text: list[str] = []  # the text buffer
        self.tokens: list[str] = []  # the same text plus anchor markers
        self.elements: list[Any] = []
        self.in_body = 0
        self.in_anchor = 0
        self.in_ignorable = 0
        self.tag_level = 0
        self.block_tag_level = -1
        self.last_was_whitespace = False
        self.flush_requested = False
        self.in_anchor_text = False
        self.last_start_tag: str | None = None
        self.label_stack: list[tuple[str, ...] | None] = []
        self.blocks: list[TextBlock] = []
        self.title: str | None = None

    # -- events -------------------------------------------------------------------------
    def start(self, tag: str) -> None:
        self.label_stack.append(None)
        action = _ACTIONS.get(tag)
        if action is None:
            self.tag_level += 1
            self.flush_requested = True
            labels = _BLOCK_LABELS.get(tag)
            if labels is not None:
                self.label_stack[-1] = labels
        elif action == _IGNORE:
            self.tag_level += 1
            self.in_ignorable += 1
            self.flush_requested = True
        elif action == _ANCHOR:
            self.tag_level += 1
            self.in_anchor += 1
            if self.in_anchor > 1:
                # A nested <a>: boilerpipe warns and ends the outer one first.
                self._end_anchor()
            if not self.in_ignorable:
                self._add_whitespace_if_necessary()
                self.tokens.append(ANCHOR_START + " ")
                self.last_was_whitespace = True
        elif action == _BODY:
            self.tag_level += 1
            self.flush()
            self.in_body += 1
        elif action == _INLINE_SPACE:
            self._add_whitespace_if_necessary()
        self.last_start_tag = tag

    def end(self, tag: str) -> None:
        action = _ACTIONS.get(tag)
        if action is None:
            self.tag_level -= 1
            self.flush()
        elif action == _IGNORE:
            self.in_ignorable -= 1
            self.tag_level -= 1
            self.flush()
        elif action == _ANCHOR:
            self._end_anchor()
            self.tag_level -= 1
            if self.flush_requested:
                self.flush()
        elif action == _BODY:
            self.flush()
            self.in_body -= 1
            self.tag_level -= 1
            if self.flush_requested:
                self.flush()
        else:
            if action == _INLINE_SPACE:
                self._add_whitespace_if_necessary()
            if self.flush_requested:
                self.flush()
        self.label_stack.pop()

    def characters(self, chunk: str, owner: Any) -> None:
        if self.flush_requested:
            self.flush()
        if self.in_ignorable:
            return
        chunk = chunk.translate(JAVA_WHITESPACE_TO_SPACE)
        stripped = chunk.strip(" ")
        if not stripped:
            if not self.last_was_whitespace:
                self.text.append(" ")
                self.tokens.append(" ")
            self.last_was_whitespace = True
            return
        if chunk[0] == " " and not self.last_was_whitespace:
            self.text.append(" ")
            self.tokens.append(" ")
        if self.block_tag_level == -1:
            self.block_tag_level = self.tag_level
        ends_with_space = chunk[-1] == " "
        if ends_with_space:
            stripped += " "
        self.text.append(stripped)
        self.tokens.append(stripped)
        self.last_was_whitespace = ends_with_space
        if not self.elements or self.elements[-1] is not owner:
            self.elements.append(owner)

    # -- helpers ------------------------------------------------------------------------
    def _add_whitespace_if_necessary(self) -> None:
        if not self.last_was_whitespace:
            self.tokens.append(" ")
            self.text.append(" ")
            self.last_was_whitespace = True

    def _end_anchor(self) -> None:
        self.in_anchor -= 1
        if self.in_anchor == 0 and not self.in_ignorable:
            self._add_whitespace_if_necessary()
            self.tokens.append(ANCHOR_END + " ")
            self.last_was_whitespace = True

    def flush(self) -> None:
        self.flush_requested = False
        tokens = "".join(self.tokens)
        if not self.in_body:
            if self.last_start_tag == "title":
                title = java_trim(tokens)
                if title:
                    self.title = title
            self.text.clear()
            self.tokens.clear()
            return
        if not tokens or (len(tokens) == 1 and self.last_was_whitespace):
            self.text.clear()
            self.tokens.clear()
            return
        stats, self.in_anchor_text = count_words(tokens, self.in_anchor_text, self.cjk)
        if stats.num_tokens == 0:
            return  # boilerpipe keeps the buffers here (its quirk): they join the next block
        labels: set[str] = set()
        for entry in self.label_stack:
            if entry:
                labels.update(entry)
        block = TextBlock(
            java_trim("".join(self.text)),
            stats.num_words,
            stats.num_words_in_anchor_text,
            stats.num_words_in_wrapped_lines,
            stats.num_wrapped_lines,
            offset=len(self.blocks),
            tag_level=self.block_tag_level,
            labels=labels,
            elements=self.elements,
        )
        self.blocks.append(block)
        self.elements = []
        self.text.clear()
        self.tokens.clear()
        self.block_tag_level = -1

    # -- the walk -----------------------------------------------------------------------
    def walk(self, root: Any) -> None:
        characters = self.characters
        start = self.start
        end = self.end
        for event, el in etree.iterwalk(root, events=("start", "end", "comment", "pi")):
            if event == "start":
                tag = el.tag
                start(tag.lower() if isinstance(tag, str) else "")
                if el.text:
                    characters(el.text, el)
            elif event == "end":
                tag = el.tag
                end(tag.lower() if isinstance(tag, str) else "")
                if el.tail:
                    characters(el.tail, el.getparent())
            elif el.tail:  # a comment or processing instruction: only its tail is text
                characters(el.tail, el.getparent())
        self.flush()  # endDocument


def build_tree(text: str) -> tuple[Any, list[str]]:
    """Parse HTML text with lxml; return the root element (or None) and parse warnings."""
    warnings: list[str] = []
    if "\x00" in text:
        text = text.replace("\x00", "\ufffd")  # libxml2 would stop at a NUL
    data = text.encode("utf-8", errors="replace")
    if not data.strip():
        return None, warnings
    parser = etree.HTMLParser(
        encoding="utf-8", huge_tree=True, no_network=True, remove_comments=False
    )
    try:
        root = etree.fromstring(data, parser)
    except (etree.ParserError, etree.XMLSyntaxError, ValueError) as exc:
        warnings.append(f"unparsable: {exc}")
        return None, warnings
    if any(_DEPTH_LIMIT_MESSAGE in e.message for e in parser.error_log):
        warnings.append("depth_limit: the tree was cut at libxml2's nesting limit (2048)")
    if root is not None:
        root = root.getroottree().getroot()
    return root, warnings


def segment(root: Any, cjk: bool = True) -> tuple[list[TextBlock], str | None]:
    """Walk a parsed tree and return its text blocks and the ``<title>``."""
    segmenter = _Segmenter(cjk)
    if root is not None:
        segmenter.walk(root)
    return segmenter.blocks, segmenter.title


def parse_html(
    html: str | bytes,
    url: str | None = None,
    *,
    encoding: str | None = None,
    content_type: str | None = None,
    cjk: bool = True,
) -> Document:
    """Parse HTML into a Document of boilerpipe text blocks.

    ``html`` may be ``str`` (already decoded, as Scrapy's ``response.text``) or ``bytes``
    (decoded with ``encoding`` if given, else the declared or detected encoding).
    ``cjk=True`` counts Chinese, Japanese and Thai characters as words (see ``words.py``);
    ``cjk=False`` counts exactly as the Java reference does.
    """
    if isinstance(html, (bytes, bytearray, memoryview)):
        html, _ = decode_html(bytes(html), encoding=encoding, content_type=content_type)
    elif not isinstance(html, str):
        raise TypeError(f"html must be str or bytes, not {type(html).__name__}")
    root, warnings = build_tree(html)
    blocks, title = segment(root, cjk=cjk)
    return Document(blocks=blocks, title=title, root=root, url=url, warnings=warnings)
