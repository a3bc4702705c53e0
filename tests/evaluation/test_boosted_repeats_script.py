"""``benchmarks.boosted_repeats``: the columns that tell a stream of teasers (a headline
link and a lead, item after item) from an article's paragraphs."""

from __future__ import annotations

import numpy as np

from scrapy_boilerplate.parse import parse_html

from ..helpers import feature_column


def test_an_articles_paragraphs_share_a_parent_and_a_streams_leads_do_not(script):
    article = "".join(f"<p>{'word ' * 30}{i}</p>" for i in range(2))
    stream = "".join(
        f"<li class=item><a href=#>Headline number {i} here</a><p>{'lead ' * 25}</p></li>"
        for i in range(5)
    )
    doc = parse_html(f"<html><body><article>{article}</article><ul>{stream}</ul></body></html>")
    assert [b.num_words for b in doc.blocks][:2] == [31, 31]
    values = script.repeat_columns(doc)
    assert values.shape == (12, len(script.COLUMNS))
    paragraphs, leads = values[:2], values[3::2]  # the leads: every second block after
    np.testing.assert_allclose(feature_column(script, paragraphs, "path_same_parent"), 1.0)
    np.testing.assert_allclose(feature_column(script, paragraphs, "path_parents"), np.log1p(1))
    np.testing.assert_allclose(feature_column(script, leads, "path_same_parent"), 0.2)
    np.testing.assert_allclose(feature_column(script, leads, "path_parents"), np.log1p(5))
    # each lead's parent (its item) holds the headline link: one block of two at least half
    # linked, 4 of its 29 words linked
    np.testing.assert_allclose(feature_column(script, leads, "parent_linked_blocks"), np.log1p(1))
    np.testing.assert_allclose(feature_column(script, leads, "parent_blocks"), np.log1p(2))
    np.testing.assert_allclose(feature_column(script, leads, "parent_link_share"), 4 / 29)
    np.testing.assert_allclose(feature_column(script, paragraphs, "parent_link_share"), 0.0)


def test_a_page_without_blocks_or_with_one_gives_finite_columns(script):
    assert script.repeat_columns(parse_html("")).shape == (0, len(script.COLUMNS))
    values = script.repeat_columns(parse_html("<p>only one block here</p>"))
    assert values.shape == (1, len(script.COLUMNS)) and np.isfinite(values).all()
