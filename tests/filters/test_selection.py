"""boilerpipe's selection filters (``filters/selection.py``) on hand-made blocks: what each
keeps, drops and labels."""

from scrapy_boilerplate import Label
from scrapy_boilerplate.filters import (
    BoilerplateBlockFilter,
    ExpandTitleToContentFilter,
    IgnoreBlocksAfterContentFilter,
    IgnoreBlocksAfterContentFromEndFilter,
    KeepLargestBlockFilter,
    KeepLargestFulltextBlockFilter,
    LargeBlockSameTagLevelToContentFilter,
    ListAtEndFilter,
    MinClauseWordsFilter,
    MinFulltextWordsFilter,
    MinWordsFilter,
    SurroundingToContentFilter,
    TrailingHeadlineToBoilerplateFilter,
)

from .helpers import block, doc, flags


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
