"""``benchmarks.boosted_description``: the columns that place each block relative to the
block holding most of the page's own summary (its meta description)."""

from __future__ import annotations

import numpy as np

from scrapy_boilerplate.parse import parse_html

from ..helpers import feature_column


def page(head):
    return (
        f"<html><head>{head}</head><body><div class=menu><p>Home News Sports Weather</p></div>"
        "<div class=story><h1>The headline</h1>"
        "<p>The council voted on Tuesday to close the old bridge for repairs next spring.</p>"
        "<p>Drivers will take the ring road while the work lasts.</p></div>"
        "<div class=aside><p>Most read stories of the week</p></div></body></html>"
    )


DESCRIBED = '<meta name="description" content="The council voted to close the old bridge.">'


def test_the_description_comes_from_the_first_meta_that_has_one(script):
    root = parse_html(
        page('<meta property="og:description" content="From open graph">' + DESCRIBED)
    ).root
    assert script.page_description(root) == "The council voted to close the old bridge."
    only_og = parse_html(page('<meta property="og:description" content="From open graph">'))
    assert script.page_description(only_og.root) == "From open graph"
    assert script.page_description(parse_html(page("")).root) is None
    assert script.page_description(None) is None


def test_the_block_holding_the_description_anchors_the_others(script):
    doc = parse_html(page(DESCRIBED))
    texts = [b.text for b in doc.blocks]
    assert texts[2].startswith("The council voted")
    values = script.description_columns(doc)
    assert values.shape == (len(texts), len(script.COLUMNS))
    # the description's 7 distinct words are all in the story's first paragraph, 8 of its
    # 14 words are the description's
    np.testing.assert_allclose(feature_column(script, values, "desc_covered")[2], 1.0)
    np.testing.assert_allclose(feature_column(script, values, "desc_block_share")[2], 8 / 14)
    assert feature_column(script, values, "desc_found").tolist() == [1.0] * len(texts)
    assert feature_column(script, values, "desc_after").tolist() == [-1, -1, 0, 1, 1]
    # the story's blocks share the anchor's container, the menu and the aside do not
    assert feature_column(script, values, "desc_in_parent").tolist() == [0, 1, 1, 1, 0]


def test_no_anchor_without_a_description_long_enough_or_a_block_that_holds_it(script):
    for head in ("", '<meta name="description" content="Bridge news">'):
        values = script.description_columns(parse_html(page(head)))
        assert not feature_column(script, values, "desc_found").any()
    elsewhere = '<meta name="description" content="A recipe for apple pie with cinnamon.">'
    values = script.description_columns(parse_html(page(elsewhere)))
    assert not feature_column(script, values, "desc_found").any()
    assert script.description_columns(parse_html("")).shape == (0, len(script.COLUMNS))


def test_cjk_text_is_matched_by_character_pairs(script):
    assert script.terms_of("北京时间 Today 新闻abc") == [
        "北京",
        "京时",
        "时间",
        "today",
        "abc",
        "新闻",
    ]
    assert script.terms_of("中") == ["中"] and script.terms_of(None) == []
    doc = parse_html(
        '<html><head><meta name="description" content="北京时间今天上午发生地震"></head><body>'
        "<div><p>网站首页 新闻 体育</p></div><div><p>北京时间今天上午发生地震，多处房屋受损。</p>"
        "<p>救援队伍已经赶到现场。</p></div></body></html>"
    )
    values = script.description_columns(doc)
    assert feature_column(script, values, "desc_after").tolist() == [-1, 0, 1]
    np.testing.assert_allclose(feature_column(script, values, "desc_covered"), [0.0, 1.0, 0.0])
