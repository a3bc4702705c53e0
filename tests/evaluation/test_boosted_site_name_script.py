"""``benchmarks.boosted_site_name``: the columns that say whether a block names the site
that publishes it (its host's name, its declared ``og:site_name``)."""

from __future__ import annotations

import numpy as np
import pytest

from scrapy_boilerplate.parse import parse_html

from ..helpers import feature_column

PAGE = (
    "<html><head>{head}</head><body><div class=story><h1>The bridge closes</h1>"
    "<p>The council voted on Tuesday to close the old bridge for repairs next spring.</p>"
    "</div><div id=sidebar><p>Danwei is supported by its readers. Support Danwei!</p>"
    "<p>Copyright 2012 The Daily Example.</p></div></body></html>"
)


@pytest.mark.parametrize(
    ("url", "label"),
    [
        ("http://www.danwei.com/a-story/", "danwei"),
        ("http://gadgetwise.blogs.nytimes.com/2012/11/08/", "nytimes"),
        ("https://www.theguardian.co.uk/world", "theguardian"),
        ("https://www.bbc.co.uk/news", None),  # fewer than 4 characters: too common a word
        ("http://127.0.0.1:8000/page", None),
        ("not a url", None),
        (None, None),
    ],
)
def test_the_host_s_name_is_its_registrable_label(script, url, label):
    assert script.host_label(url) == label


def test_blocks_that_name_the_site_by_its_host_or_its_declared_name(script):
    head = '<meta property="og:site_name" content="The  Daily Example">'
    doc = parse_html(PAGE.format(head=head), "http://www.danwei.com/a-story/")
    texts = [block.text for block in doc.blocks]
    assert texts[1].startswith("The council") and texts[2].startswith("Danwei is")
    values = script.site_name_columns(doc)
    assert values.shape == (len(texts), len(script.COLUMNS))
    assert feature_column(script, values, "site_named").tolist() == [0, 0, 1, 1]
    np.testing.assert_allclose(
        feature_column(script, values, "site_names").tolist(), [0, 0, np.log1p(2), np.log1p(1)]
    )
    assert feature_column(script, values, "site_named_share").tolist() == [0.5] * 4


def test_a_page_with_no_name_to_look_for_gets_zeros(script):
    doc = parse_html(PAGE.format(head=""), None)
    assert not script.site_name_columns(doc).any()
    empty = parse_html("", None)
    assert script.site_name_columns(empty).shape == (0, len(script.COLUMNS))
