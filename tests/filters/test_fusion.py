"""boilerpipe's fusion filters (``filters/fusion.py``) on hand-made blocks: which neighbours
merge, and what a merged block's statistics are; paragraphs split into blocks."""

import pytest

from scrapy_boilerplate.filters import (
    BlockProximityFusion,
    ContentFusion,
    LabelFusion,
    SimpleBlockFusionProcessor,
    SplitParagraphBlocksFilter,
)

from .helpers import block, doc, flags


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
