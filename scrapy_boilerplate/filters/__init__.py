"""Filters: the parts a chain is made of, and the registry that names them.

Every filter is registered under its snake_case ``name`` and under its class name, so a
chain spec may say ``"num_words_rules"`` or ``"NumWordsRulesClassifier"``. Users add their
own with :func:`register_filter`, or name them in a spec by import path.
"""

from __future__ import annotations

from .base import Filter
from .classifiers import (
    ArticleMetadataFilter,
    CanolaClassifier,
    DensityRulesClassifier,
    DocumentTitleMatchClassifier,
    NumWordsRulesClassifier,
    TerminatingBlocksFinder,
)
from .comments import CommentSectionFilter
from .fallback import FallbackFilter
from .fusion import (
    BlockProximityFusion,
    ContentFusion,
    LabelFusion,
    SimpleBlockFusionProcessor,
    SplitParagraphBlocksFilter,
)
from .selection import (
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
from .simple import (
    AddPrecedingLabelsFilter,
    InvertedFilter,
    LabelToBoilerplateFilter,
    LabelToContentFilter,
    MarkEverythingBoilerplateFilter,
    MarkEverythingContentFilter,
)

__all__ = [
    "FILTERS",
    "AddPrecedingLabelsFilter",
    "ArticleMetadataFilter",
    "BlockProximityFusion",
    "BoilerplateBlockFilter",
    "CanolaClassifier",
    "CommentSectionFilter",
    "ContentFusion",
    "DensityRulesClassifier",
    "DocumentTitleMatchClassifier",
    "ExpandTitleToContentFilter",
    "FallbackFilter",
    "Filter",
    "IgnoreBlocksAfterContentFilter",
    "IgnoreBlocksAfterContentFromEndFilter",
    "InvertedFilter",
    "KeepLargestBlockFilter",
    "KeepLargestFulltextBlockFilter",
    "LabelFusion",
    "LabelToBoilerplateFilter",
    "LabelToContentFilter",
    "LargeBlockSameTagLevelToContentFilter",
    "ListAtEndFilter",
    "MarkEverythingBoilerplateFilter",
    "MarkEverythingContentFilter",
    "MinClauseWordsFilter",
    "MinFulltextWordsFilter",
    "MinWordsFilter",
    "NumWordsRulesClassifier",
    "SimpleBlockFusionProcessor",
    "SplitParagraphBlocksFilter",
    "SurroundingToContentFilter",
    "TerminatingBlocksFinder",
    "TrailingHeadlineToBoilerplateFilter",
    "get_filter_class",
    "register_filter",
]

#: registered filter classes by name (snake_case names and class names)
FILTERS: dict[str, type[Filter]] = {}


def register_filter(cls: type[Filter], name: str | None = None) -> type[Filter]:
    """Register a filter class under ``name`` (default: its ``name`` attribute) and its
    class name. Usable as a class decorator. Returns the class."""
    if not (isinstance(cls, type) and issubclass(cls, Filter)):
        raise TypeError(f"{cls!r} is not a Filter subclass")
    key = name or cls.name
    if not key:
        raise ValueError(f"{cls.__name__} has no name; pass one to register_filter")
    FILTERS[key] = cls
    FILTERS.setdefault(cls.__name__, cls)
    return cls


def get_filter_class(name: str) -> type[Filter] | None:
    """The filter class registered under ``name``, or None."""
    return FILTERS.get(name)


for _cls in (
    TerminatingBlocksFinder,
    DocumentTitleMatchClassifier,
    NumWordsRulesClassifier,
    DensityRulesClassifier,
    CanolaClassifier,
    ArticleMetadataFilter,
    SimpleBlockFusionProcessor,
    BlockProximityFusion,
    LabelFusion,
    ContentFusion,
    SplitParagraphBlocksFilter,
    BoilerplateBlockFilter,
    KeepLargestBlockFilter,
    KeepLargestFulltextBlockFilter,
    IgnoreBlocksAfterContentFilter,
    IgnoreBlocksAfterContentFromEndFilter,
    TrailingHeadlineToBoilerplateFilter,
    ExpandTitleToContentFilter,
    LargeBlockSameTagLevelToContentFilter,
    ListAtEndFilter,
    SurroundingToContentFilter,
    MinWordsFilter,
    MinFulltextWordsFilter,
    MinClauseWordsFilter,
    MarkEverythingContentFilter,
    MarkEverythingBoilerplateFilter,
    InvertedFilter,
    LabelToContentFilter,
    LabelToBoilerplateFilter,
    AddPrecedingLabelsFilter,
    CommentSectionFilter,
    FallbackFilter,
):
    register_filter(_cls)
del _cls
