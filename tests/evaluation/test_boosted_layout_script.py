"""``benchmarks.boosted_layout``: the columns read from a page's layout markup (widths,
floats, alignment) above each block."""

from __future__ import annotations

import math

from scrapy_boilerplate.parse import parse_html

from ..helpers import feature_column

TABLE_PAGE = (
    "<html><body><table width='100%'><tr>"
    "<td width='600'><p>The council voted on Tuesday to close the old bridge.</p></td>"
    "<td width='160' align='right'><p>Most read</p></td></tr></table>"
    "<div style='float: right; width: 40%'><p>A box beside the story</p></div>"
    "<p>Footer text</p></body></html>"
)


def test_each_block_reads_the_nearest_width_and_any_float_or_alignment_above_it(script):
    doc = parse_html(TABLE_PAGE)
    assert [b.text for b in doc.blocks] == [
        "The council voted on Tuesday to close the old bridge.",
        "Most read",
        "A box beside the story",
        "Footer text",
    ]
    values = script.layout_columns(doc)
    widths = feature_column(script, values, "layout_px").tolist()
    assert widths == [math.log1p(600), math.log1p(160), 0, 0]
    assert feature_column(script, values, "layout_pct").tolist() == [0, 0, 0.4, 0]
    assert feature_column(script, values, "layout_floated").tolist() == [0, 0, 1, 0]
    assert feature_column(script, values, "layout_aligned").tolist() == [0, 1, 0, 0]
    assert feature_column(script, values, "layout_narrow_share").tolist() == [0.25] * 4


def test_a_page_without_layout_markup_gets_zeros(script):
    assert not script.layout_columns(parse_html("<p>One paragraph of text.</p>")).any()
    assert script.layout_columns(parse_html("")).shape == (0, len(script.COLUMNS))
