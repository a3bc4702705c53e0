"""boilerpipe's classifiers (``filters/classifiers.py``) on hand-made blocks: the word-count,
density and Canola rules, end-of-text markers, title matching, article metadata; and every
kind of filter on an empty document."""

import pytest

from scrapy_boilerplate import Document, Label
from scrapy_boilerplate.filters import (
    ArticleMetadataFilter,
    BlockProximityFusion,
    CanolaClassifier,
    DensityRulesClassifier,
    DocumentTitleMatchClassifier,
    KeepLargestBlockFilter,
    NumWordsRulesClassifier,
    TerminatingBlocksFinder,
)

from .helpers import block, doc, flags


def test_num_words_rules_keep_long_link_free_blocks_and_their_short_neighbours():
    d = doc(block(3), block(20), block(5), block(3, linked=3))
    assert NumWordsRulesClassifier()(d)
    # 3 words at the start: no long neighbour before, but the next has more than 15
    # 5 words after a long block: the previous has more than 4 words
    # an all-link block is never content
    assert flags(d) == [True, True, True, False]


def test_num_words_rules_need_more_after_a_link_heavy_block():
    d = doc(block(10, linked=8), block(30), block(3))
    NumWordsRulesClassifier()(d)
    # 30 words are not > 40 after a link list; then 3 words after 30 are enough
    assert flags(d) == [False, False, True]


def test_density_rules_use_words_per_line():
    d = doc(block(5), block(60, density=12), block(3))
    DensityRulesClassifier()(d)
    assert flags(d) == [True, True, True]
    d = doc(block(3), block(4), block(3))
    DensityRulesClassifier()(d)
    assert flags(d) == [False, False, False]


def test_canola_classifier():
    d = doc(block(5), block(25), block(8), block(2, linked=1), block(12))
    CanolaClassifier()(d)
    assert flags(d) == [True, True, False, True, False]


def test_classifiers_overwrite_the_content_flag():
    d = doc(block(1, linked=1, content=True))
    assert NumWordsRulesClassifier()(d)
    assert flags(d) == [False]


@pytest.mark.parametrize(
    "text",
    ["Comments (12)", "12 comments", "Post a comment", "Reader comments on this", "© Reuters 2008"],
)
def test_terminating_blocks_are_labelled_end_of_text(text):
    d = doc(block(3, text=text))
    assert TerminatingBlocksFinder()(d)
    assert Label.INDICATES_END_OF_TEXT in d.blocks[0].labels


def test_long_blocks_and_short_texts_are_not_terminating():
    d = doc(block(20, text="Comments " + "w " * 19), block(1, text="Comment", linked=1))
    assert not TerminatingBlocksFinder()(d)
    assert TerminatingBlocksFinder(match_comment_link=True)(d) is False  # labels, no change
    assert Label.INDICATES_END_OF_TEXT in d.blocks[1].labels


def test_title_match_1_2_labels_exact_title_and_longest_part():
    title = "Big storm hits the coast | Daily News"
    d = doc(block(5, text="Big storm hits the coast"), block(2, text="Daily News"), title=title)
    assert DocumentTitleMatchClassifier()(d)
    assert [Label.TITLE in b.labels for b in d.blocks] == [True, False]
    assert DocumentTitleMatchClassifier().candidates(title) == {title, "Big storm hits the coast"}


def test_title_match_1_3_normalises_and_stops_at_the_first_match():
    title = "Big storm hits the coast's towns - Daily News"
    d = doc(
        block(5, text="BIG STORM HITS THE COASTS TOWNS!"),
        block(5, text="big storm hits the coasts towns"),
        title=title,
    )
    assert DocumentTitleMatchClassifier(variant="1.3")(d)
    assert [Label.TITLE in b.labels for b in d.blocks] == [True, False]


def test_title_match_without_title_changes_nothing():
    assert not DocumentTitleMatchClassifier()(doc(block(3), title=None))


def test_article_metadata_marks_dates_and_bylines():
    d = doc(
        block(3, text="Jan 7, 2008 10:30 pm"), block(3, text="By Jane Doe"), block(3, text="Other")
    )
    assert ArticleMetadataFilter()(d)
    assert flags(d) == [True, True, False]
    assert Label.ARTICLE_METADATA in d.blocks[1].labels


@pytest.mark.parametrize(
    "f",
    [NumWordsRulesClassifier(), KeepLargestBlockFilter(True, 150), BlockProximityFusion(1, True)],
)
def test_filters_do_nothing_on_an_empty_document(f):
    assert not f(Document())
