"""``benchmarks.description_decoding``: the block holding the page's meta description
seeds a run of content after the default labeler's trees (an experiment)."""

from __future__ import annotations

import importlib

import pytest

from scrapy_boilerplate.parse import parse_html


@pytest.fixture(scope="module")
def script():
    # the benchmarks are modules of the checkout (python -m benchmarks.description_decoding)
    return importlib.import_module("benchmarks.description_decoding")


DESCRIBED = '<meta name="description" content="Readers can still vote for the town prize.">'
PAGE = (
    "<html><head>{head}</head><body><div class=menu><p>Home News Sports Weather</p></div>"
    "<div class=story><h1>The headline</h1>"
    "<p>The council voted on Tuesday to close the old bridge for repairs next spring, "
    "after an inspection found cracks in two of its piers and rust in the railings.</p>"
    "<p>Drivers will take the ring road while the work lasts, which the council expects "
    "to add ten minutes to the morning commute for most people who cross the river.</p>"
    "</div><div class='footer-links widget'><p>Readers can still vote for the town prize "
    "<a href=/v>vote now</a> <a href=/x>more</a></p></div></body></html>"
)


def test_the_anchor_is_the_block_with_most_of_the_description(script):
    doc = parse_html(PAGE.format(head=DESCRIBED))
    anchor = script.description_anchor(doc)
    assert doc.blocks[anchor].text.startswith("Readers can still vote")
    assert script.description_anchor(parse_html(PAGE.format(head=""))) == -1
    short = '<meta name="description" content="Town prize">'
    assert script.description_anchor(parse_html(PAGE.format(head=short))) == -1


def decisions(labeler, html):
    doc = parse_html(html)
    labeler(doc)
    return [b.is_content for b in doc.blocks]


def test_a_floor_of_zero_makes_the_anchor_content_and_above_one_changes_nothing(script):
    html = PAGE.format(head=DESCRIBED)
    shipped = decisions(script.BoostedLabeler(None, seed_summary=False), html)
    anchor = script.description_anchor(parse_html(html))
    # the trees leave the widget out (its words are half links)
    assert shipped == [False, False, True, True, False] and anchor == 4
    assert decisions(script.DescriptionLabeler(None, 1.1), html) == shipped
    assert decisions(script.DescriptionLabeler(None, 0.0), html) == [False, False, True, True, True]
