"""``benchmarks.description_decoding``: the block holding the page's meta description
seeds a run of content after the default labeler's trees (an experiment)."""

from __future__ import annotations

from scrapy_boilerplate.parse import parse_html

from ..helpers import bridge_story

DESCRIBED = '<meta name="description" content="Readers can still vote for the town prize.">'
WIDGET = (
    "<div class='footer-links widget'><p>Readers can still vote for the town prize "
    "<a href=/v>vote now</a> <a href=/x>more</a></p></div>"
)


def test_the_anchor_is_the_block_with_most_of_the_description(script):
    doc = parse_html(bridge_story(DESCRIBED, WIDGET))
    anchor = script.description_anchor(doc)
    assert doc.blocks[anchor].text.startswith("Readers can still vote")
    assert script.description_anchor(parse_html(bridge_story(after=WIDGET))) == -1
    short = '<meta name="description" content="Town prize">'
    assert script.description_anchor(parse_html(bridge_story(short, WIDGET))) == -1


def decisions(labeler, html):
    doc = parse_html(html)
    labeler(doc)
    return [b.is_content for b in doc.blocks]


def test_a_floor_of_zero_makes_the_anchor_content_and_above_one_changes_nothing(script):
    html = bridge_story(DESCRIBED, WIDGET)
    shipped = decisions(script.BoostedLabeler(None, seed_summary=False), html)
    anchor = script.description_anchor(parse_html(html))
    # the trees leave the widget out (its words are half links)
    assert shipped == [False, False, True, True, False] and anchor == 4
    assert decisions(script.DescriptionLabeler(None, 1.1), html) == shipped
    assert decisions(script.DescriptionLabeler(None, 0.0), html) == [False, False, True, True, True]
