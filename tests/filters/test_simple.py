"""boilerpipe's simple filters (``filters/simple.py``) on hand-made blocks: marking
everything, inverting, labels to flags, preceding labels."""

from scrapy_boilerplate import Label
from scrapy_boilerplate.filters import (
    AddPrecedingLabelsFilter,
    InvertedFilter,
    LabelToBoilerplateFilter,
    LabelToContentFilter,
    MarkEverythingBoilerplateFilter,
    MarkEverythingContentFilter,
)

from .helpers import block, doc, flags


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
