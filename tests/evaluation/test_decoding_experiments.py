"""Decoding experiments of the default labeler (not kept): short blocks left out where
they look like a menu (``benchmarks.short_link_lists``), a grow threshold set by the
page's surest block (``benchmarks.relative_growth``), and runs cut at repeated short
texts (``benchmarks.repeated_separators``)."""

from __future__ import annotations

import numpy as np
import pytest

from benchmarks.relative_growth import RelativeGrowthLabeler, relative_grow_threshold
from benchmarks.repeated_separators import RepeatedSeparatorLabeler, repeated_separator_breaks
from benchmarks.short_link_lists import ShortListLabeler, stretch_lengths, vetoed
from scrapy_boilerplate.neural.boosted import BoostedLabeler
from scrapy_boilerplate.parse import parse_html

from ..helpers import bridge_story


def test_each_block_knows_the_length_of_its_stretch():
    mask = np.array([1, 1, 0, 1, 0, 0, 1, 1, 1], dtype=bool)
    assert stretch_lengths(mask).tolist() == [2, 2, 0, 1, 0, 0, 3, 3, 3]
    assert stretch_lengths(np.zeros(0, dtype=bool)).tolist() == []


def test_a_menu_is_a_stretch_of_short_linked_blocks():
    short = np.array([1, 1, 1, 0, 1, 1], dtype=bool)
    linked = np.array([1, 1, 1, 0, 1, 0], dtype=bool)
    assert vetoed("linked", short, linked).tolist() == [1, 1, 1, 0, 1, 0]
    assert vetoed("linked:3", short, linked).tolist() == [1, 1, 1, 0, 0, 0]
    assert vetoed("stretch:2", short, linked).tolist() == [1, 1, 1, 0, 1, 1]
    with pytest.raises(ValueError, match="unknown variant"):
        ShortListLabeler.parse("menus")


def test_the_grow_threshold_follows_the_surest_block_within_the_two_thresholds():
    assert relative_grow_threshold(0.98, 0.5, 0.4, 0.55) == pytest.approx(0.49)
    assert relative_grow_threshold(0.6, 0.5, 0.4, 0.55) == 0.4  # never below the model's
    assert relative_grow_threshold(0.99, 0.6, 0.4, 0.55) == 0.55  # nor above the seed


def test_a_run_is_cut_where_a_short_text_repeated_on_the_page_lies_between_two_blocks():
    texts = ["The story", "Save", "A lead", " save ", "Another lead", "Advertisement", "End"]
    long = np.array([1, 0, 1, 0, 1, 0, 1], dtype=bool)
    rows = np.flatnonzero(long)
    # "Save" twice (case and spaces aside): a cut at 2, none at 3; "Advertisement" once
    assert repeated_separator_breaks(texts, long, rows, 2).tolist() == [True, True, False]
    assert repeated_separator_breaks(texts, long, rows, 3).tolist() == [False, False, False]
    assert repeated_separator_breaks(texts, long, rows[:1], 2).tolist() == []
    with pytest.raises(ValueError, match="at least twice"):
        RepeatedSeparatorLabeler.parse("1")


@pytest.mark.parametrize(
    "labeler",
    [
        lambda: ShortListLabeler(None, "linked:3"),
        lambda: RelativeGrowthLabeler(None, "0.45"),
        lambda: RepeatedSeparatorLabeler(None, "3"),
    ],
)
def test_the_variants_keep_the_story_of_a_plain_page(labeler):
    doc, shipped = parse_html(bridge_story()), parse_html(bridge_story())
    labeler()(doc)
    BoostedLabeler()(shipped)
    assert [b.is_content for b in doc.blocks] == [b.is_content for b in shipped.blocks]
    assert any(b.is_content for b in doc.blocks)
