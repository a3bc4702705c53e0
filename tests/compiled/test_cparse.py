"""The compiled segmenter (``_cparse.pyx``) gives what ``parse.segment_python`` gives: on
every golden and crafted page, on random tag soup (with the other twins that work on a tree:
the density walk, the collapsed DOM, the feature arrays), on a subtree and on nothing."""

import pytest

from scrapy_boilerplate import parse
from scrapy_boilerplate.parse import build_tree, segment_python

from .helpers import (
    compiled,
    features_agree,
    golden_pages,
    segmenters_agree,
    soup,
    structures_agree,
    walks_agree,
)


@compiled
@pytest.mark.parametrize("cjk", [True, False], ids=["cjk", "java"])
def test_both_segmenters_agree_on_every_golden_and_crafted_page(cjk):
    differing = []
    count = 0
    for name, html in golden_pages():
        root, _ = build_tree(html)
        count += 1
        if not segmenters_agree(root, cjk):
            differing.append(name)
    assert count > 90
    assert differing == []


@compiled
def test_both_segmenters_and_walks_agree_on_random_tag_soup():
    for seed in range(300):
        root, _ = build_tree(soup(seed))
        assert segmenters_agree(root), seed
        assert walks_agree(root), seed
        assert structures_agree(root), seed
        assert features_agree(root), seed


@compiled
def test_both_segmenters_agree_on_a_subtree_and_on_nothing():
    root, _ = build_tree("<div><p>one <a href=x>two</a></p>tail</div><p>three</p>")
    div = root.find(".//div")
    assert segmenters_agree(div)
    assert parse.segment(None) == segment_python(None) == ([], None)


@compiled
def test_the_compiled_segmenter_takes_only_lxml_elements():
    with pytest.raises(TypeError):
        parse.segment("<p>not a tree</p>")
