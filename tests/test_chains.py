"""Named extractors, chains built from specs, and extractor objects."""

import pickle
from concurrent.futures import ThreadPoolExecutor

import pytest

from scrapy_boilerplate import (
    EXTRACTORS,
    Chain,
    ChainSpecError,
    Filter,
    build_chain,
    extract,
    get_extractor,
    register_filter,
)
from scrapy_boilerplate.filters import (
    DensityRulesClassifier,
    KeepLargestBlockFilter,
    MinWordsFilter,
    NumWordsRulesClassifier,
)

PAGE = """<html><head><title>Storm hits the coast</title></head><body>
<ul><li><a href="/">Home</a></li><li><a href="/world">World</a></li></ul>
<h1>Storm hits the coast</h1>
<p>A powerful storm hit the northern coast on Tuesday night, bringing heavy rain and winds
of more than a hundred kilometres an hour to several towns along the shore.</p>
<p>Emergency services said hundreds of homes lost power, and several roads were closed
because of fallen trees and flooding in the low-lying parts of the region.</p>
<p>Comments</p><p>Great article, thanks for writing it so quickly.</p>
</body></html>"""


class DropShortBlocks(Filter):
    """A user's own filter, used by import path in the tests."""

    name = "drop_short_blocks"

    def __init__(self, min_words: int = 10) -> None:
        self.min_words = min_words

    def __call__(self, doc):
        changed = False
        for b in doc.blocks:
            if b.is_content and b.num_words < self.min_words:
                b.is_content = False
                changed = True
        return changed


def test_every_named_boilerpipe_extractor_is_registered():
    for name in [
        "article",
        "article_v13",
        "default",
        "largest",
        "canola",
        "keep_everything",
        "keep_everything_min_words",
        "num_words_rules",
        "article_sentences",
    ]:
        assert name in EXTRACTORS
        assert isinstance(extract(PAGE, extractor=name).text, str)


def test_article_keeps_the_story_and_drops_navigation_and_comments():
    text = extract(PAGE).text
    assert "powerful storm" in text and "fallen trees" in text
    assert "Home" not in text and "Great article" not in text


def test_the_article_chain_is_boilerpipes_1_2_chain():
    names = [type(f).__name__ for f in build_chain("article")]
    assert names == [
        "TerminatingBlocksFinder",
        "DocumentTitleMatchClassifier",
        "NumWordsRulesClassifier",
        "IgnoreBlocksAfterContentFilter",
        "BlockProximityFusion",
        "BoilerplateBlockFilter",
        "BlockProximityFusion",
        "KeepLargestBlockFilter",
        "ExpandTitleToContentFilter",
    ]


def test_a_chain_from_a_list_of_names():
    chain = build_chain(["density_rules", "keep_largest_block"])
    assert isinstance(chain, Chain)
    assert [type(f) for f in chain] == [DensityRulesClassifier, KeepLargestBlockFilter]


def test_a_name_that_is_both_extractor_and_filter_gives_the_extractor_chain():
    (inner,) = build_chain(["num_words_rules", "keep_largest_block"]).filters[:1]
    assert [type(f) for f in inner] == [NumWordsRulesClassifier]


def test_class_names_work_as_well_as_registry_names():
    chain = build_chain(["NumWordsRulesClassifier", {"MinWordsFilter": {"min_words": 3}}])
    assert chain.filters[1] == MinWordsFilter(3)


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
    result = extract(PAGE, extractor=["article", "tests.test_chains.DropShortBlocks"])
    assert "powerful storm" in result.text
    chain = build_chain([{"tests.test_chains.DropShortBlocks": {"min_words": 50}}])
    assert chain.min_words == 50


def test_a_registered_user_filter_is_known_by_name():
    register_filter(DropShortBlocks)
    assert build_chain("drop_short_blocks") == DropShortBlocks()


@pytest.mark.parametrize(
    "spec, message",
    [
        (["num_words_rules", "no_such_filter"], "chain entry 1 ('no_such_filter') is not a known"),
        ([{"min_words": {"wrong": 1}}], "chain entry 0 ('min_words'): bad parameters"),
        ([{"a": {}, "b": {}}], "chain entry 0"),
        (
            ["tests.test_chains.Nothing"],
            "chain entry 0 ('tests.test_chains.Nothing') cannot be imported",
        ),
        ([], "empty"),
        (42, "must be a name"),
        ([{"document_title_match": {"variant": "2.0"}}], "variant"),
    ],
)
def test_a_bad_spec_fails_at_build_time_naming_the_entry(spec, message):
    with pytest.raises(ChainSpecError, match=message.replace("(", r"\(").replace(")", r"\)")):
        get_extractor(spec)


def test_extractors_pickle_and_give_the_same_result():
    extractor = get_extractor(["article", {"min_words": {"min_words": 5}}])
    clone = pickle.loads(pickle.dumps(extractor))
    assert clone.extract(PAGE).text == extractor.extract(PAGE).text


def test_one_extractor_serves_many_threads():
    extractor = get_extractor("article")
    expected = extractor.extract(PAGE).text
    with ThreadPoolExecutor(4) as pool:
        results = list(pool.map(lambda _: extractor.extract(PAGE).text, range(40)))
    assert results == [expected] * 40


def test_tracing_records_which_filter_decided_each_block():
    result = get_extractor("article").extract(PAGE, trace=True)
    deciders = {b.decided_by for b in result.blocks}
    assert "keep_largest_block" in deciders or "block_proximity_fusion" in deciders
    assert all(b.decided_by for b in result.blocks if b.is_content)
