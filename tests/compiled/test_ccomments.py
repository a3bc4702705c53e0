"""The compiled climb to comment sections (``filters/_ccomments.pyx``) gives what
``comments.comment_sections_python`` gives: the same section (the very element) or None
for every element, on every golden and crafted page and on random markup (comment
containers named in class or id, in any case, camelCase, with a prefix, beyond ASCII,
the page's own ``<body>``, comments and elements without attributes)."""

from hypothesis import given, settings
from hypothesis import strategies as st

from scrapy_boilerplate.filters import comments
from scrapy_boilerplate.parse import build_tree, parse_html

from .helpers import compiled, golden_pages


@compiled
def test_both_climbs_agree_on_every_golden_and_crafted_page():
    sections = 0
    for _, html in golden_pages():
        doc = parse_html(html)
        # every block's element, some left out (None), as the filter passes only content
        elements = [b.element if i % 5 else None for i, b in enumerate(doc.blocks)]
        got = comments.comment_sections(elements)
        assert got == comments.comment_sections_python(elements)
        sections += sum(s is not None for s in got)
    assert sections > 20  # the pages hold comment sections, not only None


OPEN = ['<div class="comments">', '<div id="Disqus_Thread">', '<ol class="commentList">',
        '<div class="post-Replies x">', '<section id="respond">', '<div class="commentary">',
        '<div class="TALKBACK">', '<div class="tal\u212aback">', '<div class="di\u017fqus">',
        '<li class="comment-body">', '<div class="dsq">', '<div class="">', "<div>", "<p>",
        '<body class="comments">', '<span id="reply">']  # fmt: skip
CLOSE = ["</div>", "</ol>", "</section>", "</li>", "</p>", "</span>", "text ", "<!-- c -->", "<br>"]


@compiled
@settings(max_examples=1500, deadline=None)
@given(st.lists(st.sampled_from(OPEN + CLOSE), max_size=40))
def test_both_climbs_agree_on_random_markup(pieces):
    root, _ = build_tree("<html><body>" + "".join(pieces) + "</body></html>")
    if root is None:
        return
    elements = [*root.iter(), None]  # comments too: they have no attributes
    assert comments.comment_sections(elements) == comments.comment_sections_python(elements)
