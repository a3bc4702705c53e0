"""``benchmarks.boosted_readability``: Readability's choice of the article as columns of
the default labeler's trees (an experiment; readability-lxml is a benchmark extra)."""

from __future__ import annotations

import numpy as np
import pytest

from scrapy_boilerplate.parse import parse_html

PAGE = (
    "<html><body><div class=menu><p>Home News Sports</p></div>"
    "<div class=story><p>The council voted on Tuesday to close the old bridge, "
    "which has stood since 1890, for repairs next spring.</p>"
    "<p>Drivers will take the ring road, the council said, while the work lasts.</p></div>"
    "<div class=aside><p>Most read stories</p></div></body></html>"
)


def test_blocks_inside_the_article_text_are_marked(script):
    doc = parse_html(PAGE)
    article = (
        "The council voted on Tuesday to close the old bridge, which has stood since 1890, "
        "for repairs next spring.\n\n  Drivers will take the ring road, the council said, "
        "while the work lasts. Most"
    )
    values = script.article_columns(doc.blocks, article)
    inside = values[:, script.COLUMNS.index("rd_inside")]
    share = values[:, script.COLUMNS.index("rd_share")]
    assert [b.text for b in doc.blocks][0] == "Home News Sports"
    assert inside.tolist() == [0.0, 1.0, 1.0, 0.0]
    # "Most" of "Most read stories" is among the article's words, "read" and "stories" not
    np.testing.assert_allclose(share, [0.0, 1.0, 1.0, 1 / 3])
    page_share = values[:, script.COLUMNS.index("rd_page_share")]
    # the article's 19 + 13 + 1 words over the page's 3 + 19 + 13 + 3
    np.testing.assert_allclose(page_share, 33 / 38)


def test_no_article_gives_zero_columns(script):
    doc = parse_html(PAGE)
    assert not script.article_columns(doc.blocks, "").any()
    assert script.readability_columns(parse_html("")).shape == (0, len(script.COLUMNS))


def test_readability_finds_the_story(script):
    pytest.importorskip("readability")
    text = script.readability_text(parse_html(PAGE).root)
    assert "close the old bridge" in text
