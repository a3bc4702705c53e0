"""Chains built from specs (``spec.build_chain``): names, class names, parameters,
extractors inside chains, a user's filter by import path, and bad specs failing at build time."""

import pytest

from scrapy_boilerplate import Chain, ChainSpecError, build_chain, extract, get_extractor
from scrapy_boilerplate.filters import (
    DensityRulesClassifier,
    KeepLargestBlockFilter,
    NumWordsRulesClassifier,
)

from .helpers import PAGE


def test_a_chain_from_a_list_of_names():
    chain = build_chain(["density_rules", "keep_largest_block"])
    assert isinstance(chain, Chain)
    assert [type(f) for f in chain] == [DensityRulesClassifier, KeepLargestBlockFilter]


def test_a_name_that_is_both_extractor_and_filter_gives_the_extractor_chain():
    (inner,) = build_chain(["num_words_rules", "keep_largest_block"]).filters[:1]
    assert [type(f) for f in inner] == [NumWordsRulesClassifier]


def test_a_chain_entry_with_parameters():
    chain = build_chain(
        [
            "num_words_rules",
            {"keep_largest_block": {"expand_to_same_level_text": True, "min_words": 50}},
        ]
    )
    assert chain.filters[1] == KeepLargestBlockFilter(True, 50)


def test_an_extractor_name_inside_a_chain_composes():
    chain = build_chain(["article", {"min_words": {"min_words": 20}}])
    assert len(chain) == 2 and isinstance(chain.filters[0], Chain)


def test_a_users_filter_by_import_path():
    result = extract(PAGE, extractor=["article", "tests.helpers.DropShortBlocks"])
    assert "powerful storm" in result.text
    chain = build_chain([{"tests.helpers.DropShortBlocks": {"min_words": 50}}])
    assert chain.min_words == 50


@pytest.mark.parametrize(
    "spec, message",
    [
        (["num_words_rules", "no_such_filter"], "chain entry 1 ('no_such_filter') is not a known"),
        ([{"min_words": {"wrong": 1}}], "chain entry 0 ('min_words'): bad parameters"),
        ([{"a": {}, "b": {}}], "chain entry 0"),
        (
            ["tests.test_spec.Nothing"],
            "chain entry 0 ('tests.test_spec.Nothing') cannot be imported",
        ),
        ([], "empty"),
        (42, "must be a name"),
        ([{"document_title_match": {"variant": "2.0"}}], "variant"),
    ],
)
def test_a_bad_spec_fails_at_build_time_naming_the_entry(spec, message):
    with pytest.raises(ChainSpecError, match=message.replace("(", r"\(").replace(")", r"\)")):
        get_extractor(spec)
