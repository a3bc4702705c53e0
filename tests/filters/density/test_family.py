"""The density family as a whole (CETD, CETD-TPC, CEPR, CETR, BTE): every method picks the
article, in English and in Chinese; degenerate pages; composition with boilerpipe filters;
registration, pickling and parameters from a spec."""

from __future__ import annotations

import pickle

import pytest

from scrapy_boilerplate import (
    EXTRACTORS,
    FILTERS,
    Document,
    TextBlock,
    build_chain,
    extract,
    get_extractor,
)
from scrapy_boilerplate.filters.density import CETDTPCFilter
from scrapy_boilerplate.parse import parse_html

from .helpers import ARTICLE_PAGE, CLASSES, METHODS, NAV, PARAS, ZH_PAGE, ZH_PARAS, page


@pytest.mark.parametrize("name", METHODS)
def test_every_method_picks_the_article_over_the_navigation(name):
    text = extract(ARTICLE_PAGE, extractor=name).text
    for para in PARAS:
        assert para in text
    assert "Section number" not in text
    assert "Privacy" not in text
    assert "Log in" not in text


@pytest.mark.parametrize("name", METHODS)
def test_every_method_picks_the_chinese_article(name):
    # characters, not words: a Chinese paragraph is one "word" for a whitespace tokenizer
    text = extract(ZH_PAGE, extractor=name).text
    for para in ZH_PARAS:
        assert para in text
    assert "财经频道" not in text
    if name in ("cetd", "cetd_tpc"):
        # the subtree methods stop at the article; the run methods may take the footer
        # next to it (BTE counts each character of "关于我们 隐私政策 使用条款" as a word)
        assert "隐私政策" not in text


@pytest.mark.parametrize("name", METHODS)
def test_an_empty_page(name):
    doc = parse_html("")
    assert doc.root is None and not doc.blocks
    assert build_chain(name)(doc) is False
    assert extract("", extractor=name).text == ""
    empty = Document(blocks=[TextBlock("text", 1)], root=None)  # blocks but no DOM
    assert build_chain(name)(empty) is False


@pytest.mark.parametrize("name", METHODS)
def test_a_dom_nested_100000_deep(name):
    depth = 100_000
    html = (
        f"<html><body><p>start here</p>{'<div>' * depth}deep text{'</div>' * depth}</body></html>"
    )
    result = extract(html, extractor=name)  # libxml2 cuts the tree at 2048 levels
    assert result.text in ("", "start here", "deep text", "start here\n\ndeep text")


@pytest.mark.parametrize("name", METHODS)
def test_a_page_of_only_links_and_scripts(name):
    links = "".join(f'<li><a href="/{i}">Section {i}</a></li>' for i in range(30))
    html = (
        f"<html><body><script>var x = 'long long long text';</script><ul>{links}</ul></body></html>"
    )
    extract(html, extractor=name)  # whatever is chosen, nothing fails
    doc = parse_html("<html><body><script>var a = 1;</script></body></html>")
    assert build_chain(name)(doc) is False  # no blocks


def test_composes_with_a_boilerpipe_filter():
    short = "<p>Read more.</p>"
    html = page(PARAS, NAV, "Council expands bicycle lanes", extra=short)
    alone = extract(html, extractor="cetd_tpc").text
    assert "Read more." in alone
    chained = get_extractor(["cetd_tpc", "min_words"]).extract(html).text
    assert "Read more." not in chained
    assert all(p in chained for p in PARAS)


@pytest.mark.parametrize("name,cls", list(zip(METHODS, CLASSES, strict=True)))
def test_registered_and_picklable(name, cls):
    assert name in EXTRACTORS
    assert FILTERS[name] is cls and FILTERS[cls.__name__] is cls
    extractor = get_extractor(name)
    clone = pickle.loads(pickle.dumps(extractor))
    assert clone.extract(ARTICLE_PAGE).text == extractor.extract(ARTICLE_PAGE).text
    # parameters are constructor arguments, kept as attributes
    filt = cls()
    assert filt == pickle.loads(pickle.dumps(filt))
    assert set(filt.params()) >= {"skip_hidden", "combine"}


def test_parameters_from_a_spec():
    chain = build_chain([{"cetd_tpc": {"tpr_lambda": 0.5, "own_tag": False}}])
    (filt,) = chain
    assert isinstance(filt, CETDTPCFilter)
    assert (filt.tpr_lambda, filt.own_tag, filt.text_nodes) == (0.5, False, False)
    assert build_chain([{"cepr": {"threshold_lambda": 0.1}}]).filters[0].threshold_lambda == 0.1
