"""FallbackFilter (``filters/fallback.py``): a second chain decides the pages on which the
first found nothing."""

import pickle

import pytest

from scrapy_boilerplate import FILTERS, ChainSpecError, extract, get_extractor
from scrapy_boilerplate.filters import FallbackFilter
from scrapy_boilerplate.parse import parse_html

PAGE = (
    "<html><head><title>Bridge to reopen</title></head><body>"
    '<div class="nav"><a href="/">Home</a> | <a href="/news">News</a></div>'
    "<h1>Bridge to reopen</h1>"
    "<p>The council approved the repair of the old bridge on Tuesday, after engineers found "
    "cracks in two of its piers during the autumn inspection of the town centre.</p>"
    "<p>Work starts next month and should take about twelve weeks, the council said, with a "
    "temporary footbridge for pedestrians and cyclists in the meantime.</p>"
    '<div class="footer"><a href="/privacy">Privacy</a> <a href="/about">About us</a></div>'
    "</body></html>"
)


def test_a_page_with_no_content_is_decided_by_the_fallback():
    # mark_everything_boilerplate stands for a classifier that found nothing
    nothing = extract(PAGE, extractor=["mark_everything_boilerplate"])
    assert nothing.text == ""
    rescued = extract(PAGE, extractor=["mark_everything_boilerplate", "fallback"])
    assert rescued.text == extract(PAGE, extractor="article").text
    assert "temporary footbridge" in rescued.text


def test_a_page_with_content_is_left_alone():
    kept = extract(PAGE, extractor="keep_everything").text
    assert "Privacy" in kept
    assert extract(PAGE, extractor=["keep_everything", "fallback"]).text == kept


def test_the_fallback_is_any_chain_spec():
    spec = [
        "mark_everything_boilerplate",
        {"fallback": {"extractor": ["keep_everything", {"min_words": {"min_words": 10}}]}},
    ]
    text = extract(PAGE, extractor=spec).text
    assert "engineers found cracks" in text
    assert "Privacy" not in text  # fewer than 10 words


def test_a_bad_fallback_spec_fails_when_the_chain_is_built():
    with pytest.raises(ChainSpecError):
        FallbackFilter("no_such_extractor")


def test_a_page_without_blocks():
    doc = parse_html("<html><body></body></html>")
    assert not FallbackFilter()(doc)


def test_registered_pickled_and_compared_by_its_spec():
    assert FILTERS["fallback"] is FallbackFilter
    f = FallbackFilter(["largest"])
    assert pickle.loads(pickle.dumps(f)) == f
    assert f != FallbackFilter("article")
    assert repr(FallbackFilter()) == "FallbackFilter(extractor='article')"


def test_web2text_takes_a_fallback_on_request():
    pytest.importorskip("onnxruntime", reason="onnxruntime is not installed")
    assert not any(isinstance(f, FallbackFilter) for f in get_extractor("web2text").chain)
    chain = list(get_extractor([{"web2text": {"fallback": "article"}}]).chain)
    assert chain[-1] == FallbackFilter("article")
