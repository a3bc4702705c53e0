"""``benchmarks.boosted_title``: the columns that place each block relative to the block
repeating the page's ``<title>`` (the post's headline)."""

from __future__ import annotations

import numpy as np

from scrapy_boilerplate.parse import parse_html

from ..helpers import feature_column

PAGE = (
    "<html><head><title>Summertime « The Streethearts</title></head><body>"
    "<div id=header><p>The Streethearts</p></div>"
    "<div class=post><h2>Summertime</h2><p>Posted July 26th, 2011</p>"
    "<p>Photos by Eirik of the summer in the city</p></div>"
    "<div class=sidebar><p>Archives of the streethearts</p></div></body></html>"
)


def test_the_title_splits_into_its_parts(script):
    assert script.title_parts("Food Wishes: Next Up: Pumpkin Pie") == {
        ("food", "wishes", "next", "up", "pumpkin", "pie"),
        ("food", "wishes"),
        ("next", "up"),
        ("pumpkin", "pie"),
    }
    assert script.title_parts("A - B | C") >= {("a",), ("b",), ("c",)}
    assert script.title_parts(None) == set() and script.title_parts(" | ") == set()


def test_the_headline_is_the_title_part_set_in_a_heading(script):
    doc = parse_html(PAGE)
    texts = [b.text for b in doc.blocks]
    assert texts[:2] == ["The Streethearts", "Summertime"]
    values = script.title_columns(doc)
    assert values.shape == (len(texts), len(script.COLUMNS))
    # both repeat a part of the title; the blog's name is not in a heading
    assert feature_column(script, values, "title_exact")[:2].tolist() == [1.0, 1.0]
    assert feature_column(script, values, "headline_found").tolist() == [1.0] * len(texts)
    assert feature_column(script, values, "after_headline").tolist() == [-1, 0, 1, 1, 1]
    # "Posted July 26th, 2011" is right after it; the photo line 4 words later
    between = feature_column(script, values, "headline_words_between")
    np.testing.assert_allclose(between, [-np.log1p(0), 0, np.log1p(0), np.log1p(4), np.log1p(13)])
    # the post's blocks share the headline's container, the sidebar and header do not
    assert feature_column(script, values, "in_headline_parent").tolist() == [0, 1, 1, 1, 0]


def test_title_word_shares(script):
    doc = parse_html(
        "<title>Cats in the Rain</title><h1>cats in the rain!</h1><p>The rain fell on cats "
        "and on dogs and on the roofs of the whole town for hours.</p>"
    )
    values = script.title_columns(doc)
    np.testing.assert_allclose(feature_column(script, values, "title_block_share"), [1.0, 5 / 18])
    np.testing.assert_allclose(feature_column(script, values, "title_covered"), [1.0, 3 / 4])


def test_a_page_without_title_blocks_or_headline_gives_zero_columns(script):
    assert script.title_columns(parse_html("")).shape == (0, len(script.COLUMNS))
    untitled = script.title_columns(parse_html("<p>one block of text here</p>"))
    assert untitled.shape == (1, len(script.COLUMNS)) and not untitled.any()
    unmatched = script.title_columns(parse_html("<title>Elsewhere</title><p>text here</p>"))
    assert not feature_column(script, unmatched, "headline_found").any()
