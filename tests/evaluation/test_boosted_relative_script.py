"""``benchmarks.boosted_relative``: columns that place a block against its own page's."""

from __future__ import annotations

import math

import numpy as np

from scrapy_boilerplate.parse import parse_html

from ..helpers import feature_column

PAGE = (
    "<html><body>"
    "<p>one two three four five six seven eight</p>"
    "<p><a href='/a'>home</a> <a href='/b'>news</a></p>"
    "<p>one two three four</p>"
    "</body></html>"
)


def test_each_block_is_placed_against_the_page_s_longest_and_its_links(script):
    doc = parse_html(PAGE)
    words = [b.num_words for b in doc.blocks]
    assert words == [8, 2, 4]
    values = script.relative_columns(doc)
    np.testing.assert_allclose(feature_column(script, values, "rel_words_max"), [1, 0.25, 0.5])
    # ranks by words, longest first: 0, 2, 1
    np.testing.assert_allclose(
        feature_column(script, values, "rel_words_rank"), np.log1p([0, 2, 1])
    )
    p90 = np.percentile([8, 2, 4], 90)
    np.testing.assert_allclose(
        feature_column(script, values, "rel_words_p90"), np.log1p(words) - math.log1p(p90)
    )
    # two of the page's 14 words are linked, all in the middle block
    np.testing.assert_allclose(
        feature_column(script, values, "rel_link_gap"), [-2 / 14, 1 - 2 / 14, -2 / 14]
    )
    assert feature_column(script, values, "rel_density_max").max() == 1


def test_a_page_without_blocks_gets_no_rows(script):
    assert script.relative_columns(parse_html("")).shape == (0, len(script.COLUMNS))
