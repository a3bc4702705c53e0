"""boilerpipe's named extractors, as chains of its filters, and the family's table.

Each factory reproduces a boilerpipe 1.2.0 extractor filter for filter (``article_v13`` is
the ArticleExtractor chain of boilerpipe's later sources). :data:`FILTERS` and
:data:`EXTRACTORS` are what :mod:`scrapy_boilerplate.families` registers.
"""

from __future__ import annotations

from collections.abc import Callable

from .base import Chain, Filter
from .classifiers import (
    ArticleMetadataFilter,
    CanolaClassifier,
    DensityRulesClassifier,
    DocumentTitleMatchClassifier,
    NumWordsRulesClassifier,
    TerminatingBlocksFinder,
)
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
    "EXTRACTORS",
    "FILTERS",
    "KEEP_EVERYTHING_MIN_WORDS",
    "article",
    "article_sentences",
    "article_v13",
    "canola",
    "default",
    "keep_everything",
    "keep_everything_min_words",
    "largest",
    "num_words_rules",
]


def article() -> Chain:
    """boilerpipe 1.2.0 ArticleExtractor."""
    return Chain(
        [
            TerminatingBlocksFinder(),
            DocumentTitleMatchClassifier(),
            NumWordsRulesClassifier(),
            IgnoreBlocksAfterContentFilter(60),
            BlockProximityFusion(1, content_only=False, same_tag_level_only=False),
            BoilerplateBlockFilter(),
            BlockProximityFusion(1, content_only=True, same_tag_level_only=False),
            KeepLargestBlockFilter(),
            ExpandTitleToContentFilter(),
        ],
        "article",
    )


def article_v13() -> Chain:
    """The ArticleExtractor of boilerpipe's later sources (1.3 / 2.0-SNAPSHOT)."""
    return Chain(
        [
            TerminatingBlocksFinder(match_comment_link=True),
            DocumentTitleMatchClassifier(variant="1.3"),
            NumWordsRulesClassifier(),
            IgnoreBlocksAfterContentFilter(60),
            TrailingHeadlineToBoilerplateFilter(),
            BlockProximityFusion(1, content_only=False, same_tag_level_only=False),
            BoilerplateBlockFilter(keep_title=True),
            BlockProximityFusion(1, content_only=True, same_tag_level_only=True),
            KeepLargestBlockFilter(expand_to_same_level_text=True, min_words=150),
            ExpandTitleToContentFilter(),
            LargeBlockSameTagLevelToContentFilter(),
            ListAtEndFilter(),
        ],
        "article_v13",
    )


def default() -> Chain:
    """boilerpipe DefaultExtractor (its proximity fusion is a no-op here: nothing is
    content yet; kept for fidelity)."""
    return Chain(
        [SimpleBlockFusionProcessor(), BlockProximityFusion(1), DensityRulesClassifier()],
        "default",
    )


def largest() -> Chain:
    """boilerpipe LargestContentExtractor."""
    return Chain(
        [NumWordsRulesClassifier(), BlockProximityFusion(1), KeepLargestBlockFilter()],
        "largest",
    )


def canola() -> Chain:
    """boilerpipe CanolaExtractor."""
    return Chain([CanolaClassifier()], "canola")


def keep_everything() -> Chain:
    """boilerpipe KeepEverythingExtractor: all text, no removal."""
    return Chain([MarkEverythingContentFilter()], "keep_everything")


#: k of the ``keep_everything_min_words`` extractor (boilerpipe takes it as an argument)
KEEP_EVERYTHING_MIN_WORDS = 15


def keep_everything_min_words(min_words: int = KEEP_EVERYTHING_MIN_WORDS) -> Chain:
    """boilerpipe KeepEverythingWithMinKWordsExtractor(k)."""
    return Chain(
        [SimpleBlockFusionProcessor(), MarkEverythingContentFilter(), MinWordsFilter(min_words)],
        "keep_everything_min_words",
    )


def num_words_rules() -> Chain:
    """boilerpipe NumWordsRulesExtractor: the classifier alone."""
    return Chain([NumWordsRulesClassifier()], "num_words_rules")


def article_sentences() -> Chain:
    """boilerpipe ArticleSentencesExtractor: article, split into paragraphs, clauses only."""
    return Chain(
        [article(), SplitParagraphBlocksFilter(), MinClauseWordsFilter(5)], "article_sentences"
    )


#: boilerpipe's named extractors: name -> factory returning a fresh chain
EXTRACTORS: dict[str, Callable[..., Filter]] = {
    "article": article,
    "article_v13": article_v13,
    "default": default,
    "largest": largest,
    "canola": canola,
    "keep_everything": keep_everything,
    "keep_everything_min_words": keep_everything_min_words,
    "num_words_rules": num_words_rules,
    "article_sentences": article_sentences,
}

#: boilerpipe's filters (and the helpers of its later sources), registered by name
FILTERS: tuple[type[Filter], ...] = (
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
)
