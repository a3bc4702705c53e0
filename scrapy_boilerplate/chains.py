"""Chains of filters, the named extractors, and building a chain from a settings spec.

A :class:`Chain` runs its filters in order, every one of them (boilerpipe combines the
results with a non-short-circuit ``|``). An extractor name maps to a chain factory; the
boilerpipe ones below reproduce boilerpipe 1.2.0's extractors filter for filter, plus
``article_v13``, the ArticleExtractor chain of boilerpipe's later sources.

A *spec* says which chain to build, in the forms a Scrapy setting can hold::

    "article"                                   # a named extractor
    ["num_words_rules", "keep_largest_block"]   # filters (or extractors) by name
    [{"min_words": {"min_words": 20}}]          # a filter with parameters
    ["article", "myproject.filters.DropBylines"]  # import path of a user's filter class
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from .document import Document
from .errors import ChainSpecError
from .filters import (
    BlockProximityFusion,
    BoilerplateBlockFilter,
    CanolaClassifier,
    DensityRulesClassifier,
    DocumentTitleMatchClassifier,
    ExpandTitleToContentFilter,
    Filter,
    IgnoreBlocksAfterContentFilter,
    KeepLargestBlockFilter,
    LargeBlockSameTagLevelToContentFilter,
    ListAtEndFilter,
    MarkEverythingContentFilter,
    MinClauseWordsFilter,
    MinWordsFilter,
    NumWordsRulesClassifier,
    SimpleBlockFusionProcessor,
    SplitParagraphBlocksFilter,
    TerminatingBlocksFinder,
    TrailingHeadlineToBoilerplateFilter,
    get_filter_class,
)

__all__ = ["Chain", "EXTRACTORS", "build_chain", "register_extractor"]


class Chain(Filter):
    """A filter made of filters, run in order; True if any of them changed something.

    When ``doc.trace`` is set, each block records in ``decided_by`` the name of the last
    filter that flipped its content flag (for the JSON view of a wrong page).
    """

    name = "chain"

    def __init__(self, filters: Iterable[Callable[[Document], bool]], label: str = "chain") -> None:
        self.filters = tuple(filters)
        self.label = label

    def __call__(self, doc: Document) -> bool:
        changed = False
        if not doc.trace:
            for f in self.filters:
                if f(doc):
                    changed = True
            return changed
        for f in self.filters:
            if isinstance(f, Chain):
                changed |= f(doc)
                continue
            before = {id(b): b.is_content for b in doc.blocks}
            if f(doc):
                changed = True
            who = getattr(f, "name", "") or type(f).__name__
            for block in doc.blocks:
                if before.get(id(block)) != block.is_content:
                    block.decided_by = who
        return changed

    def __repr__(self) -> str:
        inner = ", ".join(repr(f) for f in self.filters)
        return f"Chain({self.label!r}: {inner})"

    def __len__(self) -> int:
        return len(self.filters)

    def __iter__(self):
        return iter(self.filters)


# -- the named extractors ------------------------------------------------------------------
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


#: named extractors: name -> factory returning a fresh chain
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


def register_extractor(name: str, factory: Callable[..., Filter]) -> None:
    """Make ``factory()`` (a chain or filter) available as the extractor ``name``."""
    EXTRACTORS[name] = factory


# -- specs -----------------------------------------------------------------------------------
def build_chain(spec: Any, label: str | None = None) -> Filter:
    """Build a filter (usually a :class:`Chain`) from a spec; see the module docstring.

    Raises :class:`ChainSpecError` naming the bad entry if the spec is wrong.
    """
    if isinstance(spec, (str, Mapping)) or _is_filter(spec):
        entries: Sequence[Any] = [spec]
        if isinstance(spec, str) and spec in EXTRACTORS:
            return _build_entry(spec, None, 0)
    elif isinstance(spec, Sequence) and not isinstance(spec, (bytes, bytearray)):
        entries = spec
    else:
        raise ChainSpecError(
            f"a chain spec must be a name, a list of entries or a filter, not {spec!r}"
        )
    if not entries:
        raise ChainSpecError("the chain spec is empty: name at least one filter or extractor")
    filters: list[Filter] = []
    for index, entry in enumerate(entries):
        if isinstance(entry, Mapping):
            if len(entry) != 1:
                raise ChainSpecError(
                    f"chain entry {index} ({entry!r}) must have exactly one key: "
                    '{"filter_name": {parameters}}'
                )
            ((name, params),) = entry.items()
            if params is None:
                params = {}
            if not isinstance(params, Mapping):
                raise ChainSpecError(
                    f"chain entry {index} ({name!r}): parameters must be a mapping, not {params!r}"
                )
            filters.append(_build_entry(name, dict(params), index))
        else:
            filters.append(_build_entry(entry, None, index))
    if len(filters) == 1 and label is None:
        return filters[0]
    return Chain(filters, label or "custom")


def _is_filter(obj: Any) -> bool:
    return isinstance(obj, Filter) or (callable(obj) and not isinstance(obj, type))


def _build_entry(entry: Any, params: dict[str, Any] | None, index: int) -> Filter:
    if _is_filter(entry) and not isinstance(entry, str):
        if params:
            raise ChainSpecError(f"chain entry {index}: a filter instance takes no parameters")
        return entry
    if not isinstance(entry, str):
        raise ChainSpecError(
            f"chain entry {index} ({entry!r}) must be a name, an import path, a mapping or a filter"
        )
    params = params or {}
    if entry in EXTRACTORS:
        return _call(EXTRACTORS[entry], params, entry, index)
    cls = get_filter_class(entry)
    if cls is not None:
        return _call(cls, params, entry, index)
    if "." not in entry:
        known = ", ".join(sorted(set(EXTRACTORS) | set(_filter_names())))
        raise ChainSpecError(
            f"chain entry {index} ({entry!r}) is not a known filter or extractor; known: {known}"
        )
    obj = _import(entry, index)
    if isinstance(obj, type):
        return _call(obj, params, entry, index)  # a filter class: instantiate it
    if callable(obj) and not params:
        return obj  # a filter function or instance
    raise ChainSpecError(
        f"chain entry {index} ({entry!r}) is not a filter class, filter or function"
        + (" (parameters need a class)" if params else "")
    )


def _call(factory: Callable[..., Any], params: dict[str, Any], entry: str, index: int) -> Any:
    try:
        built = factory(**params)
    except (TypeError, ValueError) as exc:
        raise ChainSpecError(f"chain entry {index} ({entry!r}): bad parameters: {exc}") from exc
    if not callable(built):
        raise ChainSpecError(f"chain entry {index} ({entry!r}) did not give a callable filter")
    return built


def _import(path: str, index: int) -> Any:
    module_name, _, attr = path.rpartition(".")
    try:
        module = importlib.import_module(module_name)
        return getattr(module, attr)
    except (ImportError, AttributeError) as exc:
        raise ChainSpecError(f"chain entry {index} ({path!r}) cannot be imported: {exc}") from exc


def _filter_names() -> Iterable[str]:
    from .filters import FILTERS

    return (name for name, cls in FILTERS.items() if name == cls.name)


# -- further method families ------------------------------------------------------------------
# Each family module registers its filters (register_filter) and named extractors
# (register_extractor) when imported; list them here so that every extractor name is known
# as soon as the package is. (They must not import heavy runtimes at import time.)
_FAMILY_MODULES: tuple[str, ...] = (
    "scrapy_boilerplate.neural.filter",
    "scrapy_boilerplate.filters.density",
)
for _module in _FAMILY_MODULES:
    importlib.import_module(_module)
