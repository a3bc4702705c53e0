"""``benchmarks.boosted_text_runs``: columns describing the stretch of running text (the
run of consecutive blocks, none mostly links) that a block belongs to."""

from __future__ import annotations

import math

import numpy as np

from scrapy_boilerplate.neural.boosted_features import BOOSTED_FEATURES
from scrapy_boilerplate.parse import parse_html

from ..helpers import feature_column

STORY = "The council voted on Tuesday to close the old bridge for repairs."  # 12 words
PAGE = (
    "<html><body><ul><li><a href='/'>Home</a></li><li><a href='/news'>News</a></li></ul>"
    f"<p>{STORY}</p><p>{STORY}</p><p>{STORY}</p>"
    "<ul><li><a href='/a'>Most read story one</a></li></ul>"
    "<p>About this small local blog.</p></body></html>"
)


def test_a_block_knows_the_stretch_of_running_text_it_is_in(script):
    doc = parse_html(PAGE)
    assert [b.num_words for b in doc.blocks] == [1, 1, 12, 12, 12, 4, 5]
    values = script.make("links")(doc)
    words = feature_column(script, values, "run_log_words")
    assert words.tolist() == [0, 0, *[math.log1p(36)] * 3, 0, math.log1p(5)]
    share = feature_column(script, values, "run_share")
    np.testing.assert_allclose(share, [0, 0, 36 / 41, 36 / 41, 36 / 41, 0, 5 / 41])
    assert feature_column(script, values, "run_is_top").tolist() == [0, 0, 1, 1, 1, 0, 0]
    np.testing.assert_allclose(
        feature_column(script, values, "run_vs_top"), [0, 0, 1, 1, 1, 0, 5 / 36]
    )
    blocks = feature_column(script, values, "run_log_blocks")
    assert blocks.tolist() == [0, 0, *[math.log1p(3)] * 3, 0, math.log1p(1)]


def test_the_layout_variant_also_ends_a_stretch_where_neighbours_meet_near_the_root(script):
    features = np.zeros((4, len(BOOSTED_FEATURES)), dtype=np.float32)
    words = np.array([10.0, 10.0, 10.0, 10.0])
    features[2, BOOSTED_FEATURES.index("prev_edge_common_ancestor_body_percentage")] = 0.95
    features[2, BOOSTED_FEATURES.index("prev_edge_tree_distance_more")] = 1
    by_links = script.run_columns(features, words, "links")
    by_layout = script.run_columns(features, words, "layout")
    assert by_links[:, 0].tolist() == [math.log1p(40)] * 4
    assert by_layout[:, 0].tolist() == [math.log1p(20)] * 4
    assert by_layout[:, 3].tolist() == [1, 1, 0, 0]  # the first of two equal stretches


def test_a_page_without_blocks_gets_an_empty_table(script):
    assert script.make("links")(parse_html("")).shape == (0, len(script.COLUMNS))
