"""Each boilerpipe filter on hand-made blocks: what it keeps, drops, merges and labels."""

import pytest

from scrapy_boilerplate import Document, Label, TextBlock
from scrapy_boilerplate.filters import (
    AddPrecedingLabelsFilter,
    ArticleMetadataFilter,
    BlockProximityFusion,
    BoilerplateBlockFilter,
    CanolaClassifier,
    ContentFusion,
    DensityRulesClassifier,
    DocumentTitleMatchClassifier,
    ExpandTitleToContentFilter,
    IgnoreBlocksAfterContentFilter,
    IgnoreBlocksAfterContentFromEndFilter,
    InvertedFilter,
    KeepLargestBlockFilter,
    KeepLargestFulltextBlockFilter,
    LabelFusion,
    LabelToBoilerplateFilter,
    LabelToContentFilter,
    LargeBlockSameTagLevelToContentFilter,
    ListAtEndFilter,
    MarkEverythingBoilerplateFilter,
    MarkEverythingContentFilter,
    MinClauseWordsFilter,
    MinFulltextWordsFilter,
    MinWordsFilter,
    NumWordsRulesClassifier,
    SimpleBlockFusionProcessor,
    SplitParagraphBlocksFilter,
    SurroundingToContentFilter,
    TerminatingBlocksFinder,
    TrailingHeadlineToBoilerplateFilter,
)


def block(words=10, linked=0, density=None, text=None, level=3, labels=(), content=False):
    """A block of ``words`` words; ``density`` words per line (default: one line)."""
    if density is None:
        wrapped_words, lines = words, 1
    else:  # lines of ``density`` words plus a partial one
        lines = max(1, words // density)
        wrapped_words = density * lines
    b = TextBlock(
        text if text is not None else " ".join(["w"] * words),
        words,
        linked,
        wrapped_words,
        lines,
        tag_level=level,
        labels=labels,
        is_content=content,
    )
    return b


def doc(*blocks, title=None):
    for i, b in enumerate(blocks):
        b.offset_start = b.offset_end = i
    return Document(blocks=list(blocks), title=title)


def flags(d):
    return [b.is_content for b in d.blocks]


# -- classifiers -------------------------------------------------------------------------
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


# -- end of text, title ------------------------------------------------------------------
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


# -- fusion ---------------------------------------------------------------------------------
def test_simple_block_fusion_merges_equal_densities():
    d = doc(block(4, text="a"), block(4, text="b"), block(5, text="c"))
    assert SimpleBlockFusionProcessor()(d)
    assert [b.text for b in d.blocks] == ["a\nb", "c"]
    assert d.blocks[0].num_words == 8


def test_proximity_fusion_merges_content_into_its_predecessor_even_boilerplate():
    d = doc(block(text="a"), block(text="b", content=True), block(text="c"))
    assert BlockProximityFusion(1)(d)
    assert [b.text for b in d.blocks] == ["a\nb", "c"]
    assert flags(d) == [True, False]  # the merged block is content


def test_content_only_proximity_fusion_skips_gaps_and_boilerplate():
    d = doc(block(text="a", content=True), block(text="b"), block(text="c", content=True))
    assert not BlockProximityFusion(1, content_only=True)(d)
    del d.blocks[1]  # after BoilerplateBlockFilter the gap between offsets 0 and 2 is 1
    assert BlockProximityFusion(1, content_only=True)(d)
    assert [b.text for b in d.blocks] == ["a\nc"]


def test_same_tag_level_proximity_fusion():
    d = doc(block(text="a", content=True, level=3), block(text="b", content=True, level=4))
    assert not BlockProximityFusion(1, content_only=True, same_tag_level_only=True)(d)


def test_merged_block_pools_statistics_and_keeps_the_lower_tag_level():
    a, b = block(10, linked=5, level=5), block(30, level=3)
    a.merge_next(b)
    assert (a.num_words, a.num_words_in_anchor_text, a.tag_level) == (40, 5, 3)
    assert a.link_density == pytest.approx(0.125)


def test_label_fusion_merges_neighbours_with_the_same_markup_labels():
    d = doc(block(text="a", labels={"<x"}), block(text="b", labels={"<x"}), block(text="c"))
    assert LabelFusion()(d)
    assert [b.text for b in d.blocks] == ["a\nb", "c"]


def test_content_fusion_merges_link_poor_blocks_into_content():
    d = doc(block(text="a", content=True), block(text="b"), block(text="c", linked=10))
    assert ContentFusion()(d)
    assert [b.text for b in d.blocks] == ["a\nb", "c"]


def test_split_paragraphs_makes_new_blocks_without_statistics():
    d = doc(block(10, text="one\ntwo", content=True, labels={"X"}))
    assert SplitParagraphBlocksFilter()(d)
    assert [(b.text, b.num_words, b.is_content, b.labels) for b in d.blocks] == [
        ("one", 0, True, {"X"}),
        ("two", 0, True, {"X"}),
    ]


# -- selection ------------------------------------------------------------------------------
def test_boilerplate_block_filter_removes_non_content_but_may_keep_titles():
    d = doc(block(content=True), block(), block(labels={Label.TITLE}))
    assert BoilerplateBlockFilter(keep_title=True)(d)
    assert len(d.blocks) == 2
    assert BoilerplateBlockFilter()(d)
    assert len(d.blocks) == 1


def test_keep_largest_block_keeps_the_first_largest_content_block():
    d = doc(block(50, content=True), block(80, content=True), block(80, content=True), block(90))
    assert KeepLargestBlockFilter()(d)
    assert flags(d) == [False, True, False, False]
    assert Label.VERY_LIKELY_CONTENT in d.blocks[1].labels
    assert all(Label.MIGHT_BE_CONTENT in d.blocks[i].labels for i in (0, 2, 3))


def test_keep_largest_block_expands_to_blocks_at_the_same_level():
    d = doc(
        block(200, level=2),
        block(200, level=4),
        block(160, level=4),
        block(300, level=4, content=True),
        block(100, level=4),
        block(200, level=5),
        block(200, level=4),
        block(10, level=3),
        block(200, level=4),
    )
    assert KeepLargestBlockFilter(expand_to_same_level_text=True, min_words=150)(d)
    # back to the shallower first block, forward to the shallower 8th; 100 words is too few
    assert flags(d) == [False, True, True, True, False, False, True, False, False]


def test_keep_largest_fulltext_block_counts_only_dense_text():
    d = doc(block(100, density=5, content=True), block(50, density=12, content=True))
    assert KeepLargestFulltextBlockFilter()(d)
    assert flags(d) == [False, True]
    assert not KeepLargestFulltextBlockFilter()(doc(block(), block()))


def test_ignore_blocks_after_content_cuts_at_the_end_of_text_once_there_is_enough():
    d = doc(
        block(40, density=10, content=True),
        block(3, labels={Label.INDICATES_END_OF_TEXT}),
        block(40, density=10, content=True),
        block(3, labels={Label.INDICATES_END_OF_TEXT}),
        block(40, density=10, content=True),
    )
    assert IgnoreBlocksAfterContentFilter(60)(d)
    assert flags(d) == [True, False, True, False, False]


def test_ignore_blocks_after_content_from_end():
    d = doc(
        block(300, content=True),
        block(3, labels={Label.INDICATES_END_OF_TEXT, Label.MIGHT_BE_CONTENT}, content=True),
        block(20, content=True),
    )
    assert IgnoreBlocksAfterContentFromEndFilter()(d)
    assert flags(d) == [True, False, True]
    assert d.blocks[1].labels == {Label.INDICATES_END_OF_TEXT, Label.STRICTLY_NOT_CONTENT}


def test_trailing_headings_become_boilerplate():
    d = doc(
        block(content=True),
        block(labels={Label.HEADING}, content=True),
        block(),
        block(labels={Label.HEADING}, content=True),
    )
    assert TrailingHeadlineToBoilerplateFilter()(d)
    assert flags(d) == [True, False, False, False]


def test_expand_title_to_content():
    d = doc(
        block(labels={Label.MIGHT_BE_CONTENT}),
        block(labels={Label.TITLE, Label.MIGHT_BE_CONTENT}),
        block(labels={Label.MIGHT_BE_CONTENT}),
        block(labels={Label.MIGHT_BE_CONTENT}, content=True),
    )
    assert ExpandTitleToContentFilter()(d)
    assert flags(d) == [False, True, True, True]


def test_large_blocks_at_the_main_blocks_level_become_content():
    d = doc(
        block(300, level=4, labels={Label.VERY_LIKELY_CONTENT}, content=True),
        block(120, level=4),
        block(99, level=4),
        block(150, level=5),
    )
    assert LargeBlockSameTagLevelToContentFilter()(d)
    assert flags(d) == [True, True, False, False]


def test_a_link_free_list_after_the_main_block_is_kept():
    li = {Label.LI, Label.MIGHT_BE_CONTENT}
    d = doc(
        block(300, level=4, labels={Label.VERY_LIKELY_CONTENT}, content=True),
        block(5, level=6, labels=li),
        block(5, level=6, labels=li, linked=1),
        block(5, level=6, labels=li),
    )
    assert ListAtEndFilter()(d)
    assert flags(d) == [True, True, False, False]


def test_surrounding_to_content_slides_two_blocks_at_a_time():
    d = doc(block(content=True), block(8), block(content=True), block(8), block(content=True))
    assert SurroundingToContentFilter()(d)
    assert flags(d) == [True] * 5
    # boilerpipe's window moves by two, so a gap at an odd position is never filled
    d = doc(block(), block(content=True), block(8), block(content=True))
    assert not SurroundingToContentFilter()(d)


def test_min_words_filters():
    d = doc(block(5, content=True), block(20, content=True))
    assert MinWordsFilter(10)(d)
    assert flags(d) == [False, True]
    d = doc(block(40, density=12, content=True), block(40, content=True))
    assert not MinFulltextWordsFilter(30)(d)  # 40 words on one line is dense too
    d = doc(block(40, density=5, content=True))
    assert MinFulltextWordsFilter(30)(d) and flags(d) == [False]


def test_min_clause_words_keeps_blocks_with_a_real_clause():
    d = doc(
        block(text="This is a full clause, with words.", content=True),
        block(text="Home, News, Sport.", content=True),
        block(text="no delimiter at all in this text", content=True),
    )
    assert MinClauseWordsFilter()(d)
    assert flags(d) == [True, False, False]
    d = doc(block(text="no delimiter at all in this text", content=True))
    assert not MinClauseWordsFilter(accept_clauses_without_delimiter=True)(d)


# -- simple ---------------------------------------------------------------------------------
def test_mark_everything_and_inverted():
    d = doc(block(), block(content=True))
    assert MarkEverythingContentFilter()(d) and flags(d) == [True, True]
    assert MarkEverythingBoilerplateFilter()(d) and flags(d) == [False, False]
    assert InvertedFilter()(d) and flags(d) == [True, True]


def test_labels_to_content_and_boilerplate():
    d = doc(block(labels={"X"}), block(labels={Label.STRICTLY_NOT_CONTENT}, content=True))
    assert LabelToContentFilter("X")(d)
    assert LabelToBoilerplateFilter()(d)
    assert flags(d) == [True, False]


def test_add_preceding_labels_skips_the_first_pair_as_boilerpipe_does():
    d = doc(block(labels={"A"}), block(labels={"B"}), block(labels={"C"}))
    assert AddPrecedingLabelsFilter("^")(d)
    assert [sorted(b.labels) for b in d.blocks] == [["A"], ["B"], ["C", "^B"]]


@pytest.mark.parametrize(
    "f",
    [NumWordsRulesClassifier(), KeepLargestBlockFilter(True, 150), BlockProximityFusion(1, True)],
)
def test_filters_do_nothing_on_an_empty_document(f):
    assert not f(Document())
