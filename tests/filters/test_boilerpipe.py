"""The named boilerpipe extractors (``filters/boilerpipe.py``): all registered, the article
chain is boilerpipe 1.2's, and it keeps the story."""

from scrapy_boilerplate import EXTRACTORS, build_chain, extract

from ..helpers import PAGE


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
    text = extract(PAGE, extractor="article").text
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
