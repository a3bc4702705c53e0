"""Filters: the parts a chain is made of.

``base`` holds the contract (:class:`Filter`) and :class:`Chain`; boilerpipe's filters are
in ``classifiers``, ``fusion``, ``selection`` and ``simple``, its named extractors in
``boilerpipe``; ``comments``, ``fallback``, ``noscript`` and ``threads`` (the last two
on ``reread``) are ours; ``density/`` is the density family.
Every class is importable from here. The names a spec may use are in the registry
(:mod:`scrapy_boilerplate.registry`): each filter under its snake_case ``name`` and its
class name, so a spec may say ``"num_words_rules"`` or ``"NumWordsRulesClassifier"``.
"""

from __future__ import annotations

from .base import Chain, Filter
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
from .noscript import NoscriptContent
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
from .selector import SelectorFilter
from .simple import (
    AddPrecedingLabelsFilter,
    InvertedFilter,
    LabelToBoilerplateFilter,
    LabelToContentFilter,
    MarkEverythingBoilerplateFilter,
    MarkEverythingContentFilter,
)
from .threads import WithoutCommentThreads

__all__ = [
    "AddPrecedingLabelsFilter",
    "ArticleMetadataFilter",
    "BlockProximityFusion",
    "BoilerplateBlockFilter",
    "CanolaClassifier",
    "Chain",
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
    "NoscriptContent",
    "NumWordsRulesClassifier",
    "SelectorFilter",
    "SimpleBlockFusionProcessor",
    "SplitParagraphBlocksFilter",
    "SurroundingToContentFilter",
    "TerminatingBlocksFinder",
    "TrailingHeadlineToBoilerplateFilter",
    "WithoutCommentThreads",
]
