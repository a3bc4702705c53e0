"""The compiled walk for byline candidates (``metadata/_cbylines.pyx``) gives what
``bylines.candidates_python`` gives: the same elements, in the same order, up to the
same limit, on every golden and crafted page and on random markup (classes in any case,
non-ASCII classes whose lowercase holds a piece, links with and without ``rel``,
comments and processing instructions between elements)."""

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from scrapy_boilerplate.metadata import bylines
from scrapy_boilerplate.parse import build_tree

from .helpers import compiled, golden_pages


@compiled
def test_both_walks_agree_on_every_golden_and_crafted_page():
    looked_at = 0
    for _, html in golden_pages():
        root, _ = build_tree(html)
        if root is None:
            continue
        for limit in (200, 2, 0):
            got = bylines.candidates(root, limit)
            assert got == bylines.candidates_python(root, limit)
            looked_at += len(got)
    assert looked_at > 20  # the pages hold candidates, not only empty lists


OPEN = ['<div class="author">', '<span class="BYLINE x">', '<p class="post-Writer">',
        '<a rel="author" href="/me">', '<a rel="">', "<a rel=nofollow>", "<a>",
        '<b class="fn">', '<i class="NIC\u212aNAME">', '<div class="Autorin">', '<div class="">',
        '<div class="byl ine">', "<section>", '<li class="auteur">']  # fmt: skip
OTHER = ["</div>", "</span>", "</a>", "</p>", "</b>", "</i>", "</section>", "</li>", "Jane Doe ",
         "<!-- c -->", "<?pi x?>", "<br>", "text "]  # fmt: skip


@compiled
@settings(max_examples=1500, deadline=None)
@given(st.lists(st.sampled_from(OPEN + OTHER), max_size=40), st.integers(0, 5))
def test_both_walks_agree_on_random_markup(pieces, limit):
    root, _ = build_tree("<html><body>" + "".join(pieces) + "</body></html>")
    if root is not None:
        assert bylines.candidates(root, limit) == bylines.candidates_python(root, limit)


@compiled
def test_the_walk_starts_at_the_element_it_is_given():
    root, _ = build_tree('<div class="author"><p class="byline">A</p></div><p class="fn">B</p>')
    inner = root.find(".//div")
    rnd = random.Random(0)
    for element in [root, inner, *rnd.sample(list(root.iter()), 3)]:
        assert bylines.candidates(element, 10) == bylines.candidates_python(element, 10)
    assert [e.tag for e in bylines.candidates(inner, 10)] == ["div", "p"]
