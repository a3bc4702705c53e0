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

import re
from typing import Any

from lxml import etree
from lxml import html as lxml_html

from . import neko
from ._compiled import use_twin
from .document import DISCUSSION_TYPES, Document, Label, TextBlock
from .encoding import decode_html
from .limits import MAX_TITLE_CHARS, limit_markup
from .words import (
    ANCHOR_END,
    ANCHOR_START,
    JAVA_TRIM_CHARS,
    JAVA_WHITESPACE,
    count_words_batch,
    has_tokens,
    java_trim,
)

__all__ = [
    "COMPILED",
    "FALLBACK_TAGS",
    "SVG_UNDRAWN_TAGS",
    "UNRENDERED_TAGS",
    "build_tree",
    "hide_fallback_text",
    "make_blocks",
    "parse_html",
    "read_plugin_fallbacks",
    "segment",
    "segment_python",
    "segment_shown",
]

# Tag actions of boilerpipe's DefaultTagActionMap (1.2.0), keyed by lower-case name.
_IGNORABLE = frozenset(
    ("style", "script", "option", "object", "embed", "applet", "link", "noscript")
)
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

# Tag actions, as small ints for a fast dispatch in the walk.
_BLOCK, _IGNORE, _ANCHOR, _BODY, _INLINE, _INLINE_SPACE, _LABELLED = range(7)
_ACTIONS: dict[str, int] = {
    **{t: _IGNORE for t in _IGNORABLE},
    "a": _ANCHOR,
    "body": _BODY,
    **{t: _INLINE for t in _INLINE_NO_WHITESPACE},
    **{t: _INLINE_SPACE for t in _INLINE_WHITESPACE},
    **{t: _LABELLED for t in _BLOCK_LABELS},
}
_ANCHOR_START_PART = ANCHOR_START + " "
_MARKERS = frozenset((_ANCHOR_START_PART, ANCHOR_END + " "))

_DEPTH_LIMIT_MESSAGE = "Excessive depth"
_JAVA_WHITESPACE = re.compile(f"[{JAVA_WHITESPACE.replace(' ', '')}]").sub


def segment_python(root: Any, cjk: bool = True) -> tuple[list[TextBlock], str | None]:
    """Walk a parsed tree and return its text blocks and the ``<title>``.

    This is boilerpipe's SAX content handler, replayed over the tree's start, text and end
    events in one loop (hot code: the handler's state lives in local variables).
    ``_cparse.pyx`` is its compiled twin; ``segment`` is whichever is available.
    """
    title: str | None = None
    if root is None:
        return [], title

    parts: list[str] = []  # the token buffer: text, spaces and anchor markers
    has_marker = False  # parts holds a marker (the text buffer is parts without them)
    has_text = False  # parts holds text (not only spaces and markers)
    owners: list[Any] = []  # elements whose text is in the buffer
    text_owners: list[Any] = []  # of them, those whose .text is (not a child's tail)
    tail_owners: list[Any] = []  # elements whose .tail is in the buffer
    in_body = in_ignorable = tag_level = 0
    open_anchor: Any = None  # the <a> whose text counts as linked, if any
    block_tag_level = -1
    last_was_space = False
    flush_requested = False
    # A space that boilerpipe puts in (at every link's edge, and around <abbr> and
    # <acronym>) is not the page's while no whitespace of the page follows it before the
    # next text: the index in parts of such a space still undecided, and those that are
    # not the page's (left out of the shown text, ``TextBlock.shown_text``)
    marker_space = -1
    not_shown: list[int] = []
    # per block: text, shown text (None: the text), token buffer (for word counting),
    # tag level, labels, elements, the elements whose .text / .tail it holds
    texts: list[str] = []
    shown_texts: list[str | None] = []
    token_texts: list[str] = []
    levels: list[int] = []
    labels: list[set[str]] = []
    elements: list[list[Any]] = []
    text_of: list[list[Any] | None] = []
    tail_of: list[list[Any] | tuple[()]] = []
    last_start_tag = ""
    open_labels: list[tuple[str, ...]] = []  # labels of the open LI/H1-H3 elements
    # parent element -> number of unclosed <embed>s in it, which NekoHTML ends only when
    # the parent ends (see neko.py)
    open_embeds: dict[Any, int] = {}
    ignored_bodies: set[Any] = set()  # a second <body> tag, which NekoHTML drops

    def flush() -> None:
        # boilerpipe's flushBlock (called only with a non-empty buffer)
        nonlocal parts, has_marker, has_text, owners, block_tag_level, title
        nonlocal marker_space, not_shown
        if not in_body:
            if last_start_tag == "title":
                candidate = java_trim("".join(parts))
                if candidate:
                    title = candidate
            parts = []
            has_marker = has_text = False
            owners = []  # (boilerpipe keeps them; no block of ours holds head text)
            text_owners.clear()
            tail_owners.clear()
            marker_space, not_shown = -1, []
            return
        if len(parts) == 1 and parts[0] == " " and last_was_space:
            parts = []
            has_marker = False
            marker_space, not_shown = -1, []
            return
        tokens = "".join(parts)
        if not has_text or (has_marker and not has_tokens(tokens)):
            # Only spaces and anchor markers: no block, and the buffer stays for the next
            # one (boilerpipe's quirk; its markers are counted with that block).
            return
        trimmed = tokens.strip(JAVA_TRIM_CHARS)
        texts.append(
            "".join([p for p in parts if p not in _MARKERS]).strip(JAVA_TRIM_CHARS)
            if has_marker
            else trimmed
        )
        shown_texts.append(shown_text(parts, not_shown) if not_shown else None)
        token_texts.append(trimmed)  # words are counted for all blocks at the end
        levels.append(block_tag_level)
        labels.append({label for entry in open_labels for label in entry} if open_labels else set())
        elements.append(owners if len(owners) == 1 else list(dict.fromkeys(owners)))
        # (most blocks hold no tail: their own texts are their elements, None says so)
        text_of.append(list(text_owners) if tail_owners else None)
        tail_of.append(list(tail_owners) if tail_owners else ())
        parts = []
        has_marker = has_text = False
        owners = []
        text_owners.clear()
        tail_owners.clear()
        block_tag_level = -1
        marker_space, not_shown = -1, []

    def characters(chunk: str, el: Any, is_tail: bool) -> None:
        # boilerpipe's characters(): whitespace runs at chunk edges become one space
        nonlocal flush_requested, last_was_space, block_tag_level, has_text, marker_space
        if flush_requested:
            flush_requested = False
            if parts:
                flush()
        if in_ignorable:
            return
        stripped = chunk.strip(JAVA_WHITESPACE)
        if not stripped:
            if not last_was_space:
                parts.append(" ")
                last_was_space = True
            marker_space = -1  # (the page's whitespace: a marker's space is the page's)
            return
        if not stripped.isprintable():  # Java whitespace inside becomes spaces
            stripped = _JAVA_WHITESPACE(" ", stripped)
        if chunk[0] in JAVA_WHITESPACE:
            if not last_was_space:
                parts.append(" ")
            marker_space = -1
        elif marker_space >= 0:  # text right after a link's edge: no space on the page
            not_shown.append(marker_space)
            marker_space = -1
        if block_tag_level == -1:
            block_tag_level = tag_level
        last_was_space = chunk[-1] in JAVA_WHITESPACE
        parts.append(stripped + " " if last_was_space else stripped)
        has_text = True
        if is_tail:
            owner = el.getparent()
            tail_owners.append(el)
        else:
            owner = el
            text_owners.append(el)
        if not owners or owners[-1] is not owner:
            owners.append(owner)

    def add_marker(marker: str) -> None:
        nonlocal has_marker, last_was_space, marker_space
        if not last_was_space:
            marker_space = len(parts)
            parts.append(" ")
        parts.append(marker + " ")
        has_marker = last_was_space = True

    actions = _ACTIONS.get
    open_actions: list[int] = []  # the action of every open element (for its end event)
    push_action = open_actions.append
    pop_action = open_actions.pop
    for event, el in etree.iterwalk(root, events=("start", "end", "comment", "pi")):
        if event == "start":
            tag = el.tag
            action = actions(tag, _BLOCK)
            push_action(action)
            if action == _BLOCK:
                tag_level += 1
                flush_requested = True
            elif action == _INLINE:
                pass
            elif action == _LABELLED:
                tag_level += 1
                flush_requested = True
                open_labels.append(_BLOCK_LABELS[tag])
            elif action == _ANCHOR:
                tag_level += 1
                if open_anchor is not None:
                    # An <a> inside an <a> (through a block element: lxml keeps both).
                    # NekoHTML ends the outer one here and ignores its end tag later.
                    if not in_ignorable:
                        add_marker(ANCHOR_END)
                open_anchor = el
                if not in_ignorable:
                    add_marker(ANCHOR_START)
            elif action == _IGNORE:
                tag_level += 1
                in_ignorable += 1
                flush_requested = True
                if tag == "embed" and el.get(neko.UNCLOSED_EMBED) is not None:
                    parent = el.getparent()
                    open_embeds[parent] = open_embeds.get(parent, 0) + 1
            elif action == _BODY:
                if in_body:
                    ignored_bodies.add(el)
                else:
                    tag_level += 1
                    flush_requested = False
                    if parts:
                        flush()
                    in_body += 1
            elif not last_was_space:  # _INLINE_SPACE
                marker_space = len(parts)  # (boilerpipe's space, as at a link's edge)
                parts.append(" ")
                last_was_space = True
            last_start_tag = tag
            chunk, is_tail = el.text, False
        elif event == "end":
            if open_embeds and el in open_embeds:
                # the embeds NekoHTML kept open end with their parent
                n = open_embeds.pop(el)
                in_ignorable -= n
                tag_level -= n
                flush_requested = False
                if parts:
                    flush()
            action = pop_action()
            if action == _IGNORE and el.tag == "embed" and el.get(neko.UNCLOSED_EMBED) is not None:
                continue  # still open (its tail is inside it: ignorable)
            if action == _BLOCK or action == _LABELLED:
                tag_level -= 1
                flush_requested = False
                if parts:
                    if last_was_space and len(parts) == 1 and parts[0] == " ":
                        parts.clear()  # what flush() does with a lone space, inlined
                        marker_space, not_shown = -1, []
                    else:
                        flush()
                if action == _LABELLED:
                    open_labels.pop()
            elif action == _INLINE:
                if flush_requested:
                    flush_requested = False
                    if parts:
                        flush()
            elif action == _ANCHOR:
                if el is open_anchor:
                    open_anchor = None
                    if not in_ignorable:
                        add_marker(ANCHOR_END)
                tag_level -= 1
                if flush_requested:
                    flush_requested = False
                    if parts:
                        flush()
            elif action == _IGNORE:
                in_ignorable -= 1
                tag_level -= 1
                flush_requested = False
                if parts:
                    flush()
            elif action == _BODY:
                if ignored_bodies and el in ignored_bodies:
                    pass
                else:
                    flush_requested = False
                    if parts:
                        flush()
                    in_body -= 1
                    tag_level -= 1
            else:  # _INLINE_SPACE
                if not last_was_space:
                    marker_space = len(parts)
                    parts.append(" ")
                    last_was_space = True
                if flush_requested:
                    flush_requested = False
                    if parts:
                        flush()
            chunk, is_tail = el.tail, True
        else:  # a comment or processing instruction: only its tail is text
            chunk, is_tail = el.tail, True
        if chunk:
            if flush_requested or chunk.strip(JAVA_WHITESPACE):
                characters(chunk, el, is_tail)
            elif not in_ignorable:  # whitespace between tags
                if not last_was_space:
                    parts.append(" ")
                    last_was_space = True
                marker_space = -1
    if parts:
        flush()  # endDocument
    blocks = make_blocks(
        texts, shown_texts, token_texts, levels, labels, elements, text_of, tail_of, cjk
    )
    return blocks, title


def shown_text(parts: list[str], not_shown: list[int]) -> str:
    """A block's text as the page shows it: the token buffer without the anchor markers
    and without the spaces at links' edges that the page does not have (``not_shown``:
    their indices in ``parts``), trimmed as the text is."""
    skipped = set(not_shown)
    kept = [p for i, p in enumerate(parts) if i not in skipped and p not in _MARKERS]
    return "".join(kept).strip(JAVA_TRIM_CHARS)


def make_blocks(
    texts: list[str],
    shown_texts: list[str | None],
    token_texts: list[str],
    levels: list[int],
    labels: list[set[str]],
    elements: list[list[Any]],
    text_of: list[list[Any] | None],
    tail_of: list[list[Any] | tuple[()]],
    cjk: bool,
) -> list[TextBlock]:
    """The TextBlocks of a segmentation's per-block lists (both segmenters end here); the
    words of all blocks are counted in one batch. A shown text of None is the text."""
    new_block = TextBlock.from_parser
    return [
        new_block(*values)
        for values in zip(
            texts,
            count_words_batch(token_texts, cjk),
            range(len(texts)),
            levels,
            labels,
            elements,
            shown_texts,
            text_of,
            tail_of,
            strict=True,
        )
    ]


segment = segment_python
#: whether the compiled segmenter (``_cparse``, built at install when a compiler is there)
#: is in use; ``SCRAPY_BOILERPLATE_PURE_PYTHON=1`` turns it off
COMPILED = use_twin(globals(), "segment")


_REPLACEMENT_UTF8 = "\ufffd".encode()
#: lxml.html's element classes, chosen in C: lxml.html's own lookup is Python code, run for
#: every element a walk touches, only to give form elements (<form>, <input>, ...) their
#: form-handling subclasses, which nothing here uses
_HTML_CLASSES = etree.ElementDefaultClassLookup(
    element=lxml_html.HtmlElement,
    comment=lxml_html.HtmlComment,
    pi=lxml_html.HtmlProcessingInstruction,
    entity=lxml_html.HtmlEntity,
)


def build_tree(text: str) -> tuple[Any, list[str]]:
    """Parse HTML text with lxml; return the root element (or None) and parse warnings."""
    warnings: list[str] = []
    if not text or text.isspace():
        return None, warnings
    text, warnings = limit_markup(text)
    cut = any(w.startswith("tags_limit") for w in warnings)  # (one warning says so)
    data = neko.prepare(text, None if cut else warnings).encode("utf-8", errors="replace")
    # libxml2 would stop at a NUL. Replaced in the bytes (a NUL is the byte 0 alone in
    # UTF-8, and the rewrites above treat it as any other character): a search of bytes
    # is a memchr, one of a wide str is not
    if b"\x00" in data:
        data = data.replace(b"\x00", _REPLACEMENT_UTF8)
    # lxml.html's parser: the same libxml2 parse, with HtmlElement nodes, which the
    # metadata libraries (htmldate, extruct) read without parsing the page again
    parser = lxml_html.HTMLParser(
        encoding="utf-8",
        huge_tree=True,
        no_network=True,
        remove_comments=False,
        collect_ids=False,  # no id index: nothing looks elements up by id (it costs time)
    )
    parser.set_element_class_lookup(_HTML_CLASSES)
    try:
        root = etree.fromstring(data, parser)
    except (etree.ParserError, etree.XMLSyntaxError, ValueError) as exc:
        warnings.append(f"unparsable: {exc}")
        return None, warnings
    if any(_DEPTH_LIMIT_MESSAGE in e.message for e in parser.error_log.filter_from_fatals()):
        warnings.append("depth_limit: the tree was cut at libxml2's nesting limit (2048)")
    if root is not None:
        root = root.getroottree().getroot()
        neko.repair_tree(root)
    return root, warnings


def parse_html(
    html: str | bytes,
    url: str | None = None,
    *,
    encoding: str | None = None,
    content_type: str | None = None,
    cjk: bool = True,
    plugin_fallbacks: bool = False,
) -> Document:
    """Parse HTML into a Document of boilerpipe text blocks.

    ``html`` may be ``str`` (already decoded, as Scrapy's ``response.text``) or ``bytes``
    (decoded with ``encoding`` if given, else the declared or detected encoding).
    ``cjk=True`` counts Chinese, Japanese and Thai characters as words (see ``words.py``);
    ``cjk=False`` counts exactly as the Java reference does. ``plugin_fallbacks=True``
    reads ``<object>``, ``<applet>`` and ``<embed>`` as a browser shows them today
    (:func:`read_plugin_fallbacks`: what the extractors that render the page's shown text
    read); by default as boilerpipe does, ignored with all they hold.
    """
    if isinstance(html, (bytes, bytearray, memoryview)):
        html, _ = decode_html(bytes(html), encoding=encoding, content_type=content_type)
    elif not isinstance(html, str):
        raise TypeError(f"html must be str or bytes, not {type(html).__name__}")
    root, warnings = build_tree(html)
    if plugin_fallbacks and root is not None:
        read_plugin_fallbacks(root)
    blocks, title = segment_shown(root, cjk=cjk)
    doc = Document(
        blocks=blocks,
        title=title,
        root=root,
        url=url,
        warnings=warnings,
        cjk=cjk,
        markup_length=len(html),
    )
    if not any(name in html for name in DISCUSSION_TYPES):
        doc.discussion_declared = False  # (markup without either name declares neither)
    if title is None and root is not None:
        doc.fallback_title = _title_anywhere(root)
    for name in ("title", "fallback_title"):
        value = getattr(doc, name)
        if value is not None and len(value) > MAX_TITLE_CHARS:
            setattr(doc, name, java_trim(value[:MAX_TITLE_CHARS]))
            doc.warnings.append(
                f"title_limit: the page's title is longer than {MAX_TITLE_CHARS:,} "
                "characters; only that many were kept"
            )
    return doc


#: elements whose content no browser shows: libxml2 (2.14 on, as HTML5) keeps it as raw
#: text, the fallback of an ``<iframe>`` for browsers without frames ("Your browser does
#: not support iframes", or the markup of an ad), and of ``<noembed>`` and ``<noframes>``;
#: and MathML's ``<annotation>``, a formula's source (TeX on Wikipedia: "{\\displaystyle
#: A}") beside the rendering, which ``<semantics>`` never shows (MathML Core)
FALLBACK_TAGS = ("iframe", "noembed", "noframes", "annotation")
#: elements no browser renders, with everything inside them: a ``<template>``'s content
#: (inert markup that a script may copy into the page)
UNRENDERED_TAGS = ("template",)
#: inside ``<svg>``, elements whose text is a tooltip or a description for screen readers,
#: never drawn ("Facebook" on a share icon)
SVG_UNDRAWN_TAGS = ("title", "desc")


#: an ``<object>`` that a browser fills with the resource it names, not with its fallback
#: content: by its ``type``, else by its ``data``'s extension (an image, an SVG drawing,
#: an HTML page, a PDF); every other type needed a plugin (Flash, Java, Silverlight,
#: QuickTime), which no browser has run since 2021
_SHOWN_OBJECT_TYPES = ("image/", "text/html", "application/xhtml+xml", "application/pdf")
_SHOWN_OBJECT_EXTENSIONS = (
    ".png", ".jpg", ".jpeg", ".gif", ".webp", ".avif", ".bmp", ".svg", ".svgz",
    ".html", ".htm", ".xhtml", ".pdf",
)  # fmt: skip


def read_plugin_fallbacks(root: Any) -> None:
    """Make a tree read as a browser without plugins shows its plugin elements (in place).

    boilerpipe ignores ``<object>``, ``<applet>`` and ``<embed>`` with everything inside
    them, and NekoHTML keeps an ``<embed>`` that is not closed open to its parent's end,
    with all that follows in it (neko.py); so does libxml2, which has no void ``<embed>``.
    A browser today shows an object's or applet's fallback content (a Flash video's
    caption and transcript on the news pages of 2005 to 2015), unless the object names a
    resource it shows itself (an image, SVG, an HTML page, a PDF), and ends an
    ``<embed>`` at its tag (void, as in HTML5: what libxml2 put inside it follows it). So
    each such element becomes a ``<span>`` (inline, as a browser lays a plugin out: what
    it holds is read as the page's own text), and an embed loses NekoHTML's mark.

    One search of the tree for the three tags, then a constant-time change of each (no
    element is moved: a page of many plugins stays linear)."""
    fallbacks = [
        el
        for el in root.iter("object", "applet", "embed")
        if el.tag != "object" or not _shows_resource(el)
    ]
    for el in fallbacks:
        el.tag = "span"
        el.attrib.pop(neko.UNCLOSED_EMBED, None)


def _shows_resource(obj: Any) -> bool:
    """Whether a browser fills an ``<object>`` with the resource it names
    (:data:`_SHOWN_OBJECT_TYPES`) instead of its fallback content."""
    kind = (obj.get("type") or "").strip().lower()
    if kind:
        return kind.startswith(_SHOWN_OBJECT_TYPES)
    data = (obj.get("data") or "").strip().lower()
    return data.split("#", 1)[0].split("?", 1)[0].endswith(_SHOWN_OBJECT_EXTENSIONS)


def segment_shown(root: Any, cjk: bool = True) -> tuple[list[TextBlock], str | None]:
    """:func:`segment`, then :func:`hide_fallback_text`: the blocks and title of a tree,
    each block's shown text as a browser shows it (what every reading of a tree uses)."""
    blocks, title = segment(root, cjk=cjk)
    if blocks:
        hide_fallback_text(root, blocks)
    return blocks, title


def hide_fallback_text(root: Any, blocks: list[TextBlock]) -> None:
    """Give the blocks whose every text is one no browser shows an empty shown text
    (``TextBlock.shown_text``): the text of :data:`FALLBACK_TAGS` (raw fallback text, a
    formula's annotation), and everything inside :data:`UNRENDERED_TAGS` and, in an
    ``<svg>``, inside :data:`SVG_UNDRAWN_TAGS`. What a page's text is as it shows it,
    which the learned and density extractors render. The block and its statistics stay
    as boilerpipe's (the Java library keeps that text, and boilerpipe's extractors render
    its ``text``). One search of the tree for the tags, then the blocks only on the pages
    that have such text (0.04 ms at the median wcxb-dev page, where SVG icons are
    common); each element is looked at a bounded number of times, however the tags
    nest."""
    hidden = _unshown_elements(root)
    if not hidden:
        return
    for block in blocks:
        # a tail is its parent's text: shown unless the parent's content is not
        if all(el in hidden for el in block.text_of) and all(
            el.getparent() in hidden for el in block.tail_of
        ):
            block.hide_shown_text()


def _unshown_elements(root: Any) -> set[Any]:
    """The elements whose own text no browser shows (see :func:`hide_fallback_text`)."""
    hidden: set[Any] = set()
    drawn_svg: set[Any] = set()  # <svg> elements inside one whose tree was walked
    for el in root.iter(FALLBACK_TAGS + UNRENDERED_TAGS + ("svg",)):
        if el in hidden:  # inside content already taken whole
            continue
        if el.tag in UNRENDERED_TAGS:
            hidden.update(el.iter())
        elif el.tag == "svg":
            if el in drawn_svg:
                continue
            for inner in el.iter(("svg", *SVG_UNDRAWN_TAGS)):
                if inner.tag == "svg":
                    drawn_svg.add(inner)
                elif inner not in hidden:
                    hidden.update(inner.iter())
        elif el.text is not None and not el.text.isspace():  # FALLBACK_TAGS: own text
            hidden.add(el)
    return hidden


def _title_anywhere(root: Any) -> str | None:
    """The text of the first ``<title>`` outside SVG, wherever the parser put it: an element
    of the body in ``<head>`` (``<iframe>``, ``<noscript>``) moves the title into the body,
    where the walk, as boilerpipe's handler, takes it for text (and finds no title: the
    filters see what boilerpipe's see)."""
    for element in root.iter("title"):
        if any(a.tag == "svg" for a in element.iterancestors()):
            continue
        text = java_trim(_JAVA_WHITESPACE(" ", "".join(element.itertext())))
        if text:
            return text
    return None
