"""neko.prepare rewrites what NekoHTML and lxml repair differently, in time linear in the
page: the same rewrites as the regular expressions that defined them (kept here as the
reference), without their quadratic runs on crafted pages."""

from __future__ import annotations

import gzip
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scrapy_boilerplate import extract, neko

from .helpers import LINEAR_GROWTH_LIMIT, growth

GOLDEN = Path(__file__).parent / "golden"

# -- the reference: the patterns prepare() used to run (quadratic on the pages below) -------
_TITLE_START = re.compile(r"<title\b[^>]*>", re.IGNORECASE)
_TITLE_END = re.compile(r"</title\s*>", re.IGNORECASE)
_TITLE_STOP = re.compile(r"<[A-Za-z]|</(?:head|body|html)\b", re.IGNORECASE)
_DROPPED_IN_TITLE = re.compile(r"<!--.*?-->|</[A-Za-z][^>]*>", re.DOTALL)
_REWRITTEN = re.compile(
    r"</(?:[bB][oO][dD][yY]|[hH][tT][mM][lL])\s*>|</[pP](?=[\s>/])[^>]*>|<[pP](?=[\s>/])"
    r"|<[eE][mM][bB][eE][dD]\b(?=[^>]*>(?!\s*(?:</(?:[bB][oO][dD][yY]|[hH][tT][mM][lL])\s*>\s*)*"
    r"</[eE][mM][bB][eE][dD]\s*>))"
)


def _reference_without_markup(title: str) -> str:
    out = ""
    for piece in _DROPPED_IN_TITLE.split(title):
        if out and piece and (out[-1].isspace() or piece[0].isspace()):
            out = out.rstrip() + " " + piece.lstrip()
        else:
            out += piece
    return out


def _reference_titles(html: str) -> str:
    start = _TITLE_START.search(html)
    pieces: list[str] = []
    pos = 0
    while start is not None:
        if _TITLE_END.search(html, start.end()) is not None:
            break
        stop = _TITLE_STOP.search(html, start.end())
        end = stop.start() if stop else len(html)
        pieces += [html[pos : start.end()], _reference_without_markup(html[start.end() : end])]
        pieces.append("</title>")
        pos = end
        start = _TITLE_START.search(html, end)
    return "".join([*pieces, html[pos:]]) if pieces else html


def _reference_tags(html: str) -> str:
    pieces: list[str] = []
    pos = 0
    paragraph_open = False
    marks = neko.raw_text_marks(html)
    for match in _REWRITTEN.finditer(html):
        tag = match[0]
        if tag[1] == "/" and tag[2] in "pP":
            if not paragraph_open and not neko.inside_raw_text(marks, match.start()):
                pieces += [html[pos : match.start()], "<p></p>"]
                pos = match.end()
            paragraph_open = False
        elif tag[1] == "/":
            pieces.append(html[pos : match.start()])
            pos = match.end()
        elif tag[1] in "pP":
            paragraph_open = True
        else:
            pieces += [html[pos : match.start()], f'<embed {neko.UNCLOSED_EMBED}=""']
            pos = match.end()
    return "".join([*pieces, html[pos:]]) if pieces else html


def reference_prepare(html: str) -> str:
    return _reference_tags(_reference_titles(html))


# -- the same rewrites -----------------------------------------------------------------------
def test_the_rewrites_equal_the_reference_on_every_golden_and_crafted_page():
    pages = [gzip.decompress(p.read_bytes()).decode() for p in (GOLDEN / "pages").glob("*.gz")]
    pages += [p.read_text(encoding="utf-8") for p in (GOLDEN / "crafted").glob("*.html")]
    assert len(pages) > 90
    for html in pages:
        assert neko.prepare(html) == reference_prepare(html)


PIECES = [
    "<title>", "<TITLE x>", "<title", "</title>", "</title >", "<p>", "<P ", "</p>", "</p ",
    "</P x>", "<p", "</p", "<embed>", "<EMBED src=x>", "</embed>", "</embed >", "<embed",
    "</body>", "</html>", "</BODY >", "<!--", "-->", "<script>", "</script>", "<style>",
    "</style>", ">", "<", "x", " ", "\n", "text", "<b>", "</b>", "<div>", "</a x",
    "<!-- c -->", "<head>", "</head>",
]  # fmt: skip


@settings(max_examples=3000, deadline=None)
@given(st.lists(st.sampled_from(PIECES), max_size=40))
def test_the_rewrites_equal_the_reference_on_tag_soup(pieces):
    html = "".join(pieces)
    assert neko.prepare(html) == reference_prepare(html)


# -- in linear time ------------------------------------------------------------------------
CRAFTED = {
    # stray end tags, title and embed tags that never end: each used to scan to the end
    # of the page, from every one of them
    "stray </p without >": ("<html><body><p>x</p>", "</p "),
    "<title without >": ("<html><head>", "<title "),
    "<embed without >": ("<html><body>", "<embed "),
    "many unclosed titles": ("<html><head>", "<title>x"),
    "comments opened in a title": ("<html><head><title>", "<!--"),
    "end tags without > in a title": ("<html><head><title>", "</a "),
}


@pytest.mark.parametrize("head, unit", CRAFTED.values(), ids=list(CRAFTED))
def test_prepare_is_linear_on_crafted_pages(head, unit):
    ratio = growth(neko.prepare, lambda n: head + unit * n, 8_000)
    assert ratio < LINEAR_GROWTH_LIMIT


def test_a_whole_extraction_of_stray_paragraph_ends_is_linear():
    # the page: 64,000 "</p " (256 KB) took ~10 s through the whole extraction
    ratio = growth(extract, lambda n: "<html><body><p>x</p>" + "</p " * n, 8_000)
    assert ratio < LINEAR_GROWTH_LIMIT
