"""``benchmarks.headline_decoding``: the first block after the headline as a seed of the
default labeler's runs (an experiment, not kept)."""

from __future__ import annotations

from scrapy_boilerplate.parse import parse_html

from ..helpers import bridge_story


def test_the_headline_is_the_heading_that_repeats_a_part_of_the_title(script):
    doc = parse_html(bridge_story("<title>The headline | Town News</title>"))
    assert doc.blocks[script.headline(doc)].text == "The headline"
    assert script.headline(parse_html(bridge_story("<title>Something else</title>"))) == -1
    assert script.headline(parse_html(bridge_story())) == -1


def test_a_sure_lead_leaves_the_decisions_as_they_were(script):
    doc = parse_html(bridge_story("<title>The headline | Town News</title>"))
    shipped = parse_html(bridge_story("<title>The headline | Town News</title>"))
    script.BoostedLabeler()(shipped)
    script.HeadlineLabeler()(doc)
    assert [b.is_content for b in doc.blocks] == [b.is_content for b in shipped.blocks]
    assert [b.is_content for b in doc.blocks][2:4] == [True, True]
