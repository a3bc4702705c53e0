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

from ._compiled import use_twin
from .limits import MAX_TAGS
from .words import JAVA_WHITESPACE

__all__ = [
    "COMPILED",
    "HEAD_ELEMENTS",
    "RAW_TEXT_WINDOW",
    "UNCLOSED_EMBED",
    "inside_raw_text",
    "prepare",
    "raw_text_marks",
    "repair_tree",
    "rewrite_tags",
    "rewrite_tags_python",
]

#: attribute put on ``<embed>`` tags that NekoHTML would leave open
UNCLOSED_EMBED = "data-boilerplate-unclosed"

# Every scan below is linear in the page: a tag's end (">"), a comment's end ("-->") and the
# like are found with _NextFind, never with a pattern that runs to the end of the page from
# each of many starts (a page of "</p " without ">" made those quadratic).
_TITLE_OPEN = re.compile(r"<title\b", re.IGNORECASE)
_TITLE_END = re.compile(r"</title\s*>", re.IGNORECASE)
_TITLE_STOP = re.compile(r"<[A-Za-z]|</(?:head|body|html)\b", re.IGNORECASE)
# what NekoHTML drops from a title: comments and end tags (each up to its end, found apart)
_IN_TITLE_MARKUP = re.compile(r"<!--|</[A-Za-z]")
# the tags prepare() rewrites, up to where each needs its end found: </body> and </html>
# (whole); </p; <p; <embed
_REWRITTEN_TAG_START = re.compile(
    r"</(?:[bB][oO][dD][yY]|[hH][tT][mM][lL])\s*>"
    r"|</[pP](?=[\s>/])|<[pP](?=[\s>/])|<[eE][mM][bB][eE][dD]\b"
)
# after an <embed ...>'s ">": its end tag, past any </body> and </html> (which prepare()
# drops, so they do not stand between an embed and its end)
_EMBED_CLOSED = re.compile(
    r"\s*(?:</(?:[bB][oO][dD][yY]|[hH][tT][mM][lL])\s*>\s*)*</[eE][mM][bB][eE][dD]\s*>"
)
_RAW_TEXT = (("<!--", "-->"), ("<script", "</script"), ("<style", "</style"))
#: how far back a stray </p> looks for an open comment, script or style
RAW_TEXT_WINDOW = 200_000


class _NextFind:
    """``text.find(needle, pos)`` for positions that mostly grow: a later position before
    the last answer gets that answer again, so each character is looked at about once."""

    __slots__ = ("text", "needle", "pos", "found")

    def __init__(self, text: str, needle: str) -> None:
        self.text = text
        self.needle = needle
        self.pos = -1
        self.found = -1

    def __call__(self, pos: int) -> int:
        if self.pos >= 0 and self.pos <= pos and (self.found < 0 or self.found >= pos):
            return self.found
        self.pos = pos
        self.found = self.text.find(self.needle, pos)
        return self.found


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


#: characters of a title that is never closed read as its text (16 times
#: :data:`~scrapy_boilerplate.limits.MAX_TITLE_CHARS`, what the title keeps)
MAX_TITLE_MARKUP = 65_536


def _close_runaway_titles(html: str, max_titles: int = MAX_TAGS) -> tuple[str, bool]:
    """``html`` with each title that is never closed ended where NekoHTML ends it, and
    whether the page was cut: past ``max_titles`` such titles the rest of the page is not
    read (each becomes an element, which the tag limit, reading a title's text as HTML5
    does, never counted: 16 MB of ``<title>x`` took 20 s)."""
    next_gt = _NextFind(html, ">")
    pieces: list[str] = []
    pos = 0
    end_tag_follows = True  # until a search for one fails (then none follows any later)
    closed = 0
    opening = _TITLE_OPEN.search(html)
    while opening is not None:
        gt = next_gt(opening.end())
        if gt < 0:
            break  # no tag ends after here: no more titles
        start_end = gt + 1
        # (the search finds a common title's own end tag, right after its text; it scans
        # the rest of the page once at most, when it fails)
        if end_tag_follows:
            end_tag_follows = _TITLE_END.search(html, start_end) is not None
            if end_tag_follows:
                break  # closed later: the rest of the titles are ordinary
        if closed == max_titles:
            pieces.append(html[pos : opening.start()])
            return "".join(pieces), True
        stop = _TITLE_STOP.search(html, start_end)
        end = stop.start() if stop else len(html)
        pieces.append(html[pos:start_end])
        # (a title's first MAX_TITLE_MARKUP characters: the rest of a runaway title is
        # title text no one reads, and dropping its comments went over it piece by piece)
        pieces.append(_without_markup(html[start_end : min(end, start_end + MAX_TITLE_MARKUP)]))
        pieces.append("</title>")
        closed += 1
        pos = end
        opening = _TITLE_OPEN.search(html, pos)  # after the runaway title's text
    if not pieces:
        return html, False
    pieces.append(html[pos:])
    return "".join(pieces), False


def _without_markup(title: str) -> str:
    # NekoHTML drops comments and stray end tags; the text around them arrives in
    # separate chunks, whose edge whitespace boilerpipe collapses to one space.
    out = ""
    for piece in _split_markup(title):
        if out and piece and (out[-1].isspace() or piece[0].isspace()):
            out = out.rstrip() + " " + piece.lstrip()
        else:
            out += piece
    return out


def _split_markup(title: str) -> list[str]:
    """The text between the comments (``<!--`` to the next ``-->``) and end tags (``</``
    and a letter, to the next ``>``) of a title, as ``re.split`` on those would give it."""
    next_gt = _NextFind(title, ">")
    next_comment_end = _NextFind(title, "-->")
    pieces: list[str] = []
    pos = 0
    markup = _IN_TITLE_MARKUP.search(title)
    while markup is not None:
        start = markup.start()
        if markup[0] == "<!--":
            end = next_comment_end(start + 4)
            end = end + 3 if end >= 0 else -1
        else:
            end = next_gt(start + 3)
            end = end + 1 if end >= 0 else -1
        if end < 0:  # unterminated: text
            markup = _IN_TITLE_MARKUP.search(title, start + 1)
            continue
        pieces.append(title[pos:start])
        pos = end
        markup = _IN_TITLE_MARKUP.search(title, pos)
    pieces.append(title[pos:])
    return pieces


# lxml gives text with control characters (the parser keeps them) but refuses them when
# set back: Java's whitespace among them becomes a space, the others U+FFFD
_XML_UNSAFE = {
    **{
        cp: " " if chr(cp) in JAVA_WHITESPACE else "\ufffd"
        for cp in range(32)
        if cp not in (9, 10, 13)
    },
    0xFFFE: "\ufffd",
    0xFFFF: "\ufffd",
}


def _set(node: Any, attribute: str, text: str | None) -> None:
    """``node.text`` or ``node.tail`` set to ``text``, made XML-safe if lxml refuses it."""
    try:
        setattr(node, attribute, text)
    except ValueError:
        setattr(node, attribute, text.translate(_XML_UNSAFE) if text else text)


def _append_text(parent: Any, text: str) -> None:
    if len(parent):
        _set(parent[-1], "tail", (parent[-1].tail or "") + text)
    else:
        _set(parent, "text", (parent.text or "") + text)


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
        _set(moving[-1], "tail", (moving[-1].tail or "") + lead)


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


_MARKED_EMBED = f'<embed {UNCLOSED_EMBED}=""'


def rewrite_tags_python(html: str) -> str:
    """``html`` with ``</body>`` and ``</html>`` dropped, each stray ``</p>`` (no ``<p>``
    opened since the previous ``</p>``, or the page start) made an empty paragraph unless
    it is inside a comment, script or style, and each ``<embed>`` not followed by
    ``</embed>`` marked (:data:`UNCLOSED_EMBED`). ``_cneko.pyx`` is its compiled twin;
    ``rewrite_tags`` is whichever is in use."""
    pieces: list[str] = []
    pos = 0  # what is copied so far
    paragraph_open = False
    marks: RawTextMarks | None = None  # found when the first stray </p> needs them
    next_gt = _NextFind(html, ">")
    closed_after: dict[int, bool] = {}  # an embed tag's ">" -> whether </embed> follows
    match = _REWRITTEN_TAG_START.search(html)
    while match is not None:
        start = match.start()
        tag = match[0]
        second = tag[1]
        resume = match.end()
        if (second == "/" and tag[2] in "pP") or second not in "/pP":  # </p or <embed
            gt = next_gt(resume)
            if gt < 0:
                break  # no ">" after here: no tag left to rewrite
            if second == "/":  # a whole </p ...>
                resume = gt + 1
                if not paragraph_open:
                    if marks is None:
                        marks = raw_text_marks(html)
                    if not inside_raw_text(marks, start):
                        pieces.append(html[pos:start])
                        pieces.append("<p></p>")
                        pos = resume
                paragraph_open = False
            else:  # <embed
                closed = closed_after.get(gt)
                if closed is None:
                    closed = closed_after[gt] = _EMBED_CLOSED.match(html, gt + 1) is not None
                if not closed:
                    pieces.append(html[pos:start])
                    pieces.append(_MARKED_EMBED)
                    pos = resume
        elif second == "/":  # </body> or </html>
            pieces.append(html[pos:start])
            pos = resume
        else:  # <p
            paragraph_open = True
        match = _REWRITTEN_TAG_START.search(html, resume)
    if not pieces:
        return html
    pieces.append(html[pos:])
    return "".join(pieces)


def prepare(html: str, warnings: list[str] | None = None) -> str:
    """Rewrite the few constructs NekoHTML and lxml repair differently (see module doc).
    Past :data:`~scrapy_boilerplate.limits.MAX_TAGS` titles that are never closed the
    rest of the page is cut off, with a ``tags_limit`` warning added to ``warnings``."""
    html, cut = _close_runaway_titles(html)
    if cut and warnings is not None:
        warnings.append(
            f"tags_limit: the page has more than {MAX_TAGS:,} titles that are never closed; "
            f"what follows the {MAX_TAGS:,}th was not read"
        )
    return rewrite_tags(html)


rewrite_tags = rewrite_tags_python
#: whether the compiled rewrite (``_cneko``) is in use
COMPILED = use_twin(globals(), "rewrite_tags")
