"""The selector filter: a site's own CSS selector or XPath makes the blocks inside the
matched elements boilerplate (or content with ``keep``), checked when the chain is built."""

from __future__ import annotations

import pickle

import pytest

from scrapy_boilerplate import ChainSpecError, extract, get_extractor
from scrapy_boilerplate.filters import SelectorFilter
from scrapy_boilerplate.parse import parse_html

from ..helpers import LINEAR_GROWTH_LIMIT, growth

PAGE = (
    "<html><body><h1>Storm hits the coast</h1>"
    "<p>A powerful storm hit the coast on Tuesday night with heavy rain and winds.</p>"
    "<div class='related'><p>Related: another story about storms in the region.</p></div>"
    "<p>Officials said that <span class='related'>hundreds of</span> homes lost power.</p>"
    "</body></html>"
)


def text(spec) -> str:
    return extract(PAGE, extractor=spec).text


def test_the_blocks_inside_the_selected_elements_become_boilerplate():
    assert "Related: another story" in text("keep_everything")
    kept = text(["keep_everything", {"selector": {"css": ".related"}}])
    assert "Related: another story" not in kept
    # a block only partly inside a match keeps its text: the selector removes blocks
    assert "Officials said that hundreds of homes lost power." in kept
    assert "Storm hits the coast" in kept


def test_with_keep_they_become_content_and_an_xpath_does_as_a_css_selector():
    spec = [
        "mark_everything_boilerplate",
        {"selector": {"xpath": "//div[@class='related']", "keep": True}},
    ]
    assert text(spec) == "Related: another story about storms in the region."
    css = ["mark_everything_boilerplate", {"selector": {"css": "div.related", "keep": True}}]
    assert text(css) == text(spec)


def test_it_pickles_for_worker_processes():
    extractor = get_extractor(["keep_everything", {"selector": {"css": ".related"}}])
    again = pickle.loads(pickle.dumps(extractor))
    assert again.extract(PAGE).text == extractor.extract(PAGE).text


@pytest.mark.parametrize(
    "parameters, message",
    [
        ({}, "give one of css or xpath"),
        ({"css": "p", "xpath": "//p"}, "give one of css or xpath"),
        ({"css": "div[["}, "bad parameters"),
        ({"xpath": "//div["}, "bad parameters"),
        ({"xpath": "count(//p)"}, "must select elements"),
        ({"xpath": "no-such-function(//p)"}, "bad parameters"),
    ],
)
def test_a_bad_selector_fails_when_the_chain_is_built(parameters, message):
    with pytest.raises(ChainSpecError, match=message):
        get_extractor(["keep_everything", {"selector": parameters}])


@pytest.mark.parametrize("parameter", ["css", "xpath"])
def test_a_spec_from_outside_may_not_bring_a_selector(parameter):
    # a request's meta: some XPaths make libxml2 take far more than linear time
    spec = ["keep_everything", {"selector": {parameter: "p" if parameter == "css" else "//p"}}]
    with pytest.raises(ChainSpecError, match=f"'{parameter}' is not allowed here"):
        get_extractor(spec, allowed_imports=())


def test_matches_inside_matches_are_not_walked_again():
    # every div matches and each holds all the later ones: walking each match's subtree
    # would be quadratic in the nesting
    select = SelectorFilter(css="div")

    def page(n):
        return parse_html("<html><body>" + "<div><p>x</p>" * n + "</div>" * n + "</body></html>")

    assert growth(select, page, 400) < LINEAR_GROWTH_LIMIT
    doc = page(10)
    select(doc)
    assert not any(block.is_content for block in doc.blocks)
