"""``benchmarks.boosted_link_targets``: columns from where a block's links point."""

from __future__ import annotations

import math

import numpy as np
import pytest

from scrapy_boilerplate.parse import parse_html

from ..helpers import feature_column

PAGE = (
    "<html><body>"
    "<p>The council voted, <a href='https://other.example.com/report'>says a report</a>, "
    "to close the bridge.</p>"
    "<ul><li><a href='/2012/05/council-closes-the-old-bridge'>Council closes the old "
    "bridge for good</a></li></ul>"
    "<p><a href='#top'>Back to top</a></p>"
    "<p>No links in this one at all.</p>"
    "</body></html>"
)


def test_each_block_says_where_its_links_point(script):
    doc = parse_html(PAGE)
    doc.url = "https://www.example.org/news/1"
    values = script.link_target_columns(doc)
    assert feature_column(script, values, "href_log_links").tolist() == [
        math.log1p(1),
        math.log1p(1),
        math.log1p(1),
        0,
    ]
    assert feature_column(script, values, "href_internal").tolist() == [0, 1, 1, 0]
    assert feature_column(script, values, "href_fragment").tolist() == [0, 0, 1, 0]
    assert feature_column(script, values, "href_long_text").tolist() == [0, 1, 0, 0]
    assert feature_column(script, values, "href_story_path").tolist() == [0, 1, 0, 0]
    np.testing.assert_allclose(feature_column(script, values, "href_page_internal"), 2 / 3)


@pytest.mark.parametrize(
    ("href", "kind"),
    [
        ("https://example.org/a", (True, False, False, False)),  # "www." aside
        ("//cdn.example.net/x", (False, False, False, False)),
        ("/sport/2009/01/match", (True, False, False, True)),
        ("/tag/bridges", (True, False, False, False)),
        ("http://[broken/", (False, False, False, False)),
    ],
)
def test_a_link_s_kind(script, href, kind):
    assert script.link_kind(href, "example.org", 2) == kind


def test_a_page_without_links_or_url_gets_zeros(script):
    assert not script.link_target_columns(parse_html("<p>Plain text only.</p>")).any()
