"""The page's own summary (its meta description) and the block that holds it, which the
default labeler lets seed a run of content (``neural/summary.py``, ``seed_summary``)."""

from __future__ import annotations

import numpy as np
import pytest

from scrapy_boilerplate import get_extractor
from scrapy_boilerplate.neural import summary
from scrapy_boilerplate.neural.boosted import SUMMARY_FLOOR, BoostedLabeler, seeded_by_summary
from scrapy_boilerplate.parse import parse_html

from ..helpers import bridge_story


def head(html: str):
    return parse_html(f"<html><head>{html}</head><body><p>x</p></body></html>").root


def test_the_summary_is_the_first_description_meta_in_order_of_preference():
    og = '<meta property="og:description" content="From open graph">'
    plain = '<meta name="Description" content=" The site\'s own ">'
    assert summary.page_summary(head(og + plain)) == "The site's own"
    assert summary.page_summary(head(og)) == "From open graph"
    assert summary.page_summary(head('<meta name="description" content="  ">' + og)) == (
        "From open graph"
    )
    assert summary.page_summary(head('<meta name="keywords" content="a, b">')) is None
    assert summary.page_summary(None) is None


def test_terms_are_lowercased_words_and_cjk_character_pairs():
    assert summary.summary_terms("The Bridge, closed!") == ["the", "bridge", "closed"]
    assert summary.summary_terms("市政府关闭 bridge") == ["市政", "政府", "府关", "关闭", "bridge"]
    assert summary.summary_terms("中") == ["中"]
    assert summary.summary_terms("市政府", cjk=False) == ["市政府"]


TEXTS = [
    "Home News Sports Weather",
    "The council voted on Tuesday to close the old bridge for repairs.",
    "Drivers will take the ring road while the work lasts.",
    "The council voted to close the old bridge, it said again.",
]


def test_the_block_holding_most_of_the_summary_is_found():
    assert summary.summary_block(TEXTS, "The council voted to close the old bridge.") == 1


def test_too_short_or_too_little_covered_summaries_anchor_nothing():
    assert summary.summary_block(TEXTS, "Close the bridge") == -1  # 3 terms
    # 2 of 8 distinct terms in any block
    assert summary.summary_block(TEXTS, "Bridge repairs: what drivers in town must know") == -1
    assert summary.summary_block(TEXTS, None) == -1
    assert summary.summary_block([], "The council voted to close the old bridge.") == -1


def test_a_chinese_summary_finds_its_block_by_character_pairs():
    texts = ["首页 新闻 体育", "市政府周二决定关闭旧桥进行维修，工程将持续到明年春天。"]
    assert summary.summary_block(texts, "市政府决定关闭旧桥进行维修") == 1


def test_only_the_summarys_first_terms_count():
    first = [f"alpha{i}" for i in range(summary.MAX_TERMS)]
    rest = [f"omega{i}" for i in range(5000)]
    texts = [" ".join(rest), " ".join(first)]
    # the whole description's terms are mostly in the first text; its first 64 in the second
    assert summary.summary_block(texts, " ".join(first + rest)) == 1


ASIDE = "<aside><p>Readers can still vote for the town prize this week.</p></aside>"
DESCRIBED = (
    '<meta name="description" content="Readers can still vote for the town prize this week.">'
)


@pytest.mark.parametrize(
    ("p", "seeded"),
    [(0.1, 0.1), (SUMMARY_FLOOR, 0.55), (0.3, 0.55), (0.9, 0.9)],
)
def test_the_summary_block_is_raised_to_the_threshold_from_the_floor(p, seeded):
    doc = parse_html(bridge_story(DESCRIBED, ASIDE))
    rows = np.array([1, 2, 3, 4])  # the heading and the three paragraphs
    probability = np.array([0.2, 0.9, 0.9, p], np.float32)
    out = seeded_by_summary(doc, rows, probability, 0.55)
    assert out[:3].tolist() == pytest.approx([0.2, 0.9, 0.9])
    assert out[3] == pytest.approx(seeded)
    assert probability[3] == pytest.approx(p)  # the trees' array is left alone


def test_a_page_without_a_summary_keeps_the_trees_probabilities():
    doc = parse_html(bridge_story(after=ASIDE))
    probability = np.array([0.3], np.float32)
    assert seeded_by_summary(doc, np.array([4]), probability, 0.55) is probability


def test_the_default_keeps_the_summary_block_the_trees_doubt():
    html = bridge_story(DESCRIBED, ASIDE)
    # the shipped trees doubt the aside: above the floor, below the runs' grow threshold
    scores = BoostedLabeler(seed_summary=False).scored(parse_html(html))
    assert SUMMARY_FLOOR <= scores.probability[-1] < scores.grow_threshold
    text = get_extractor("boosted").extract(html).text
    assert "Readers can still vote" in text
    assert "close the old bridge" in text
    # without the rule it is left out, as on a page with no description
    plain = get_extractor([{"boosted": {"seed_summary": False}}]).extract(html).text
    assert "Readers can still vote" not in plain
    assert get_extractor("boosted").extract(bridge_story(after=ASIDE)).text == plain
