"""The compiled tag rewrite (``_cneko.pyx``) gives what ``neko.rewrite_tags_python`` gives:
on every golden and crafted page and on random markup, including the edges of its
patterns (Unicode whitespace inside ``</body >``, ``<embed`` before a word character,
tags cut off at the page's end)."""

from hypothesis import given, settings
from hypothesis import strategies as st

from scrapy_boilerplate import neko

from .helpers import compiled, golden_pages


@compiled
def test_both_rewrites_agree_on_every_golden_and_crafted_page():
    rewritten = 0
    for _, html in golden_pages():
        got = neko.rewrite_tags(html)
        assert got == neko.rewrite_tags_python(html)
        rewritten += got != html
    assert rewritten > 10  # the pages exercise the rewrites, not only the copy


PIECES = [
    "<p>", "<P ", "<p/", "<p", "</p>", "</p ", "</P\t>", "</p/", "</p", "</px>", "<px>",
    "<embed>", "<EMBED src=x>", "<embedx>", "<embed_", "<embed\u00e9", "<embed-x>", "<embed",
    "</embed>", "</embed >", "</body>", "</BODY\u3000>", "</body x>", "</bodyx>", "</html>",
    "</HtMl\n>", "</html", "<!--", "-->", "<script>", "</script>", "<style>", "</STYLE>",
    ">", "<", "/", "x", " ", "\u00a0", "\n", "\U0001f600", "<b>", "</b>", "<div>",
]  # fmt: skip


@compiled
@settings(max_examples=4000, deadline=None)
@given(st.lists(st.sampled_from(PIECES), max_size=40))
def test_both_rewrites_agree_on_random_markup(pieces):
    html = "".join(pieces)
    assert neko.rewrite_tags(html) == neko.rewrite_tags_python(html)
