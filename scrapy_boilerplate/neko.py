"""Where NekoHTML (boilerpipe's parser) and lxml build different trees, and it matters.

boilerpipe's results depend on how its HTML parser repairs markup. Two repairs differ
between NekoHTML 1.9 and libxml2 often enough to change whole pages, so we make lxml see
what NekoHTML sees, before parsing:

* A ``<title>`` never closed: an HTML5 tokenizer (libxml2 2.14+) reads the rest of the
  page as title text. NekoHTML ends the title at the next start tag (or ``</head>``,
  ``</body>``, ``</html>``), dropping comments and stray end tags from it. We close such
  titles there. (A title closed later is plain text up to ``</title>`` in both.)
* ``</body>`` and ``</html>``: NekoHTML ignores them and keeps the body open to the end
  of the page; libxml2 closes what is open there, and puts what follows beside the body,
  or in a second root element that ``lxml`` does not even return. We drop those end tags
  and move stray content into the body.
* Elements in ``<head>`` that do not belong there (``<noscript>``, ``<object>``, unknown
  tags): NekoHTML starts the body at the first of them, libxml2 may keep them in the
  head, where boilerpipe ignores text. We move them, and what follows, into the body.
* A ``</p>`` with no ``<p>`` open: NekoHTML makes an empty paragraph of it (as HTML5
  does), a block boundary; libxml2 drops it. We write the empty paragraph out.
* ``<embed>``: void in HTML5, an ordinary element for NekoHTML, which keeps it open (and
  ignores its content, as boilerpipe ignores EMBED) until an enclosing element closes. We
  mark ``<embed>`` tags not followed by ``</embed>``; the walk then treats the rest of the
  parent element as inside the embed.

Other repairs (misnested tables, for instance) differ too; the agreement benchmark
(``benchmarks/boilerpipe_agreement.py``) reports their effect.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from typing import Any

__all__ = [
    "HEAD_ELEMENTS",
    "RAW_TEXT_WINDOW",
    "UNCLOSED_EMBED",
    "inside_raw_text",
    "prepare",
    "raw_text_marks",
    "repair_tree",
]

#: attribute put on ``<embed>`` tags that NekoHTML would leave open
UNCLOSED_EMBED = "data-boilerplate-unclosed"

_TITLE_START = re.compile(r"<title\b[^>]*>", re.IGNORECASE)
_TITLE_END = re.compile(r"</title\s*>", re.IGNORECASE)
_TITLE_STOP = re.compile(r"<[A-Za-z]|</(?:head|body|html)\b", re.IGNORECASE)
_DROPPED_IN_TITLE = re.compile(r"<!--.*?-->|</[A-Za-z][^>]*>", re.DOTALL)
_DOCUMENT_END_TAG = re.compile(r"</(?:[bB][oO][dD][yY]|[hH][tT][mM][lL])\s*>")
_PARAGRAPH_END = re.compile(r"</[pP](?=[\s>/])[^>]*>")
_PARAGRAPH_START = re.compile(r"<[pP](?=[\s>/])")
_RAW_TEXT = (("<!--", "-->"), ("<script", "</script"), ("<style", "</style"))
#: how far back a stray </p> looks for an open comment, script or style
RAW_TEXT_WINDOW = 200_000


def _ascii_case_insensitive(literal: str) -> re.Pattern[str]:
    # what html.lower().find(literal) finds: ASCII letters in either case, nothing else
    # (re.IGNORECASE would also match the long s or the Kelvin sign)
    return re.compile(
        "".join(f"[{c}{c.upper()}]" if c.isalpha() else re.escape(c) for c in literal)
    )


_RAW_TEXT_PATTERNS = tuple(
    (_ascii_case_insensitive(start), len(start), _ascii_case_insensitive(end), len(end))
    for start, end in _RAW_TEXT
)
# (the </body> and </html> that prepare() drops do not stand between an embed and its end)
_UNCLOSED_EMBED = re.compile(
    r"<[eE][mM][bB][eE][dD]\b(?=[^>]*>(?!\s*(?:</(?:[bB][oO][dD][yY]|[hH][tT][mM][lL])\s*>\s*)*"
    r"</[eE][mM][bB][eE][dD]\s*>))"
)


def _close_runaway_titles(html: str) -> str:
    start = _TITLE_START.search(html)
    if start is None:
        return html
    pieces: list[str] = []
    pos = 0
    while start is not None:
        if _TITLE_END.search(html, start.end()) is not None:
            break  # closed later: the rest of the titles are ordinary
        stop = _TITLE_STOP.search(html, start.end())
        end = stop.start() if stop else len(html)
        pieces.append(html[pos : start.end()])
        pieces.append(_without_markup(html[start.end() : end]))
        pieces.append("</title>")
        pos = end
        start = _TITLE_START.search(html, end)
    if not pieces:
        return html
    pieces.append(html[pos:])
    return "".join(pieces)


def _without_markup(title: str) -> str:
    # NekoHTML drops comments and stray end tags; the text around them arrives in
    # separate chunks, whose edge whitespace boilerpipe collapses to one space.
    out = ""
    for piece in _DROPPED_IN_TITLE.split(title):
        if out and piece and (out[-1].isspace() or piece[0].isspace()):
            out = out.rstrip() + " " + piece.lstrip()
        else:
            out += piece
    return out


def _append_text(parent: Any, text: str) -> None:
    if len(parent):
        parent[-1].tail = (parent[-1].tail or "") + text
    else:
        parent.text = (parent.text or "") + text


#: elements NekoHTML keeps in <head>; any other starts the body
HEAD_ELEMENTS = frozenset(("title", "meta", "link", "style", "script", "base"))


def repair_tree(root: Any) -> None:
    """Move body content that libxml2 left in ``<head>``, after ``</body>`` or after
    ``</html>`` into the body, where NekoHTML puts it."""
    _move_body_content_out_of_head(root)
    _merge_stray_content(root)


def _move_body_content_out_of_head(root: Any) -> None:
    head = root.find("head")
    if head is None:
        return
    first = next((c for c in head if isinstance(c.tag, str) and c.tag not in HEAD_ELEMENTS), None)
    if first is None:
        return
    body = root.find("body")
    if body is None:
        body = root.makeelement("body", {})
        head.addnext(body)
    moving = [first, *first.itersiblings()]
    lead, body.text = body.text, None
    for index, node in enumerate(moving):
        body.insert(index, node)
    if lead:
        moving[-1].tail = (moving[-1].tail or "") + lead


def _merge_stray_content(root: Any) -> None:
    body = root.find("body")
    target = body if body is not None else root
    if body is not None:
        if body.tail:
            _append_text(body, body.tail)
            body.tail = None
        for sibling in list(body.itersiblings()):
            body.append(sibling)
    stray = root.getnext()
    while stray is not None:
        following = stray.getnext()
        if isinstance(stray.tag, str):  # a further <html> root holding stray content
            if stray.text:
                _append_text(target, stray.text)
            for child in list(stray):
                if child.tag == "body" and target is body:
                    if child.text:
                        _append_text(body, child.text)
                    for grandchild in list(child):
                        body.append(grandchild)
                    if child.tail:
                        _append_text(body, child.tail)
                else:
                    target.append(child)
                    if child.tag == "body" and body is None:
                        body = target = child
        stray = following


RawTextMarks = list[tuple[list[int], int, list[int], int]]


def raw_text_marks(html: str) -> RawTextMarks:
    """Where comments, scripts and styles open and close in a page: for each kind, the
    positions of its opening and closing strings (case-insensitive) and their lengths."""
    return [
        (
            [m.start() for m in start.finditer(html)],
            start_len,
            [m.start() for m in end.finditer(html)],
            end_len,
        )
        for start, start_len, end, end_len in _RAW_TEXT_PATTERNS
    ]


def _last_within(positions: list[int], length: int, low: int, pos: int) -> int:
    # the last occurrence lying wholly in html[low:pos] (what rfind finds there), or -1
    i = bisect_right(positions, pos - length) - 1
    return positions[i] if i >= 0 and positions[i] >= low else -1


def inside_raw_text(marks: RawTextMarks, pos: int, window: int = RAW_TEXT_WINDOW) -> bool:
    """Whether ``pos`` is inside a comment, a script or a style (where tags are text):
    in the ``window`` characters before it, the last opening string of a kind comes after
    the last closing one. Binary searches in ``marks`` (:func:`raw_text_marks`), so a page
    with many stray ``</p>`` costs no more than one scan (a slice of the window per stray
    tag would be quadratic)."""
    low = max(0, pos - window)
    return any(
        _last_within(starts, start_len, low, pos) > _last_within(ends, end_len, low, pos)
        for starts, start_len, ends, end_len in marks
    )


# The tags prepare() rewrites, found in one pass (each alternative starts at a "<", so the
# search runs at C speed between tags): </body> and </html>; </p>; <p>; <embed> left open.
_REWRITTEN_TAGS = re.compile(
    "|".join(
        p.pattern for p in (_DOCUMENT_END_TAG, _PARAGRAPH_END, _PARAGRAPH_START, _UNCLOSED_EMBED)
    )
)


_MARKED_EMBED = f'<embed {UNCLOSED_EMBED}=""'


def _rewrite_tags(html: str) -> str:
    # </body>, </html>: dropped. </p>: a stray one (no <p> opened since the previous </p>,
    # or the page start) becomes an empty paragraph, unless it is inside a comment, script
    # or style. <embed> not followed by </embed>: marked.
    pieces: list[str] = []
    pos = 0
    paragraph_open = False
    marks: RawTextMarks | None = None  # found when the first stray </p> needs them
    for match in _REWRITTEN_TAGS.finditer(html):
        tag = match[0]
        second = tag[1]
        if second == "/":
            if tag[2] in "pP":
                if not paragraph_open:
                    if marks is None:
                        marks = raw_text_marks(html)
                    if not inside_raw_text(marks, match.start()):
                        pieces.append(html[pos : match.start()])
                        pieces.append("<p></p>")
                        pos = match.end()
                paragraph_open = False
            else:  # </body> or </html>
                pieces.append(html[pos : match.start()])
                pos = match.end()
        elif second in "pP":
            paragraph_open = True
        else:  # an <embed> left open
            pieces.append(html[pos : match.start()])
            pieces.append(_MARKED_EMBED)
            pos = match.end()
    if not pieces:
        return html
    pieces.append(html[pos:])
    return "".join(pieces)


def prepare(html: str) -> str:
    """Rewrite the few constructs NekoHTML and lxml repair differently (see module doc)."""
    return _rewrite_tags(_close_runaway_titles(html))
