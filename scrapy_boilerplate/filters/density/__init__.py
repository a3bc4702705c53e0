"""The density and ratio family: CETD, CETD-TPC, CEPR, CETR and BTE, as DOM filters.

Each method walks the document's DOM (``doc.root``: from ``<body>``, or from the root when
there is none) once, scores its elements, text runs or lines, selects what it takes for
the main content, and labels the blocks whose text lies in the selection
(:func:`label_blocks`: a block is content when at least half of its text, by characters,
is selected), so it composes with every other filter of a chain. Each is a registered
filter (``cetd``, ``cetd_tpc``, ``cepr``, ``cetr``, ``bte``) and a named extractor of the
same name: a chain of that one filter.

Shared conventions (details in ``docs/density.md``):

* lengths are characters (non-whitespace), so Chinese and Japanese text counts by its
  characters; BTE counts words, each CJK character a word;
* ignored: the content of ``script``, ``style``, ``noscript``, ``template``, comments,
  and (``skip_hidden``, the default) of elements with the ``hidden`` attribute or an
  inline ``display: none``;
* ``combine`` decides how the selection meets the blocks' flags: ``set`` (the default),
  ``and`` (keep only what was content and is selected) or ``or`` (add the selection);
* time is linear in the number of nodes (one iterative walk, then numpy).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..base import Chain, Filter
from ._dom import (
    EXCLUDED_TAGS,
    LINK_TAGS,
    DensityFilter,
    DomStats,
    dom_stats,
    label_blocks,
    start_element,
)
from .bte import BTEFilter, bte_range, count_words
from .cepr import CEPRFilter, cepr_scores, path_distance
from .cetd import CETDFilter, cetd_scores, cetd_select
from .cetr import CETRFilter, cetr_features, cetr_lines, gaussian_smooth, kmeans_pinned
from .tpc import CETDTPCFilter, cetd_tpc_select, tag_path_ratios, text_block_density

__all__ = [
    "EXCLUDED_TAGS",
    "EXTRACTORS",
    "FILTERS",
    "LINK_TAGS",
    "BTEFilter",
    "CEPRFilter",
    "CETDFilter",
    "CETDTPCFilter",
    "CETRFilter",
    "DensityFilter",
    "DomStats",
    "bte_range",
    "cepr_scores",
    "cetd_scores",
    "cetd_select",
    "cetd_tpc_select",
    "cetr_features",
    "cetr_lines",
    "count_words",
    "dom_stats",
    "gaussian_smooth",
    "kmeans_pinned",
    "label_blocks",
    "path_distance",
    "start_element",
    "tag_path_ratios",
    "text_block_density",
]

#: the family's filters, each registered as a filter and as an extractor of its name
FILTERS: tuple[type[DensityFilter], ...] = (
    CETDFilter,
    CETDTPCFilter,
    CEPRFilter,
    CETRFilter,
    BTEFilter,
)


class _ExtractorFactory:
    """A picklable factory for the extractor named after a density filter: a chain of that
    one filter, built with the given parameters."""

    def __init__(self, cls: type[DensityFilter]) -> None:
        self.cls = cls
        self.__wrapped__ = cls  # its parameters are the filter's (signature, type hints)
        self.__doc__ = f"The {cls.name!r} extractor: a chain of {cls.__name__}."

    def __call__(self, **params: Any) -> Chain:
        return Chain([self.cls(**params)], self.cls.name)

    def __repr__(self) -> str:
        return f"<extractor factory {self.cls.name!r}>"


#: the family's named extractors: each a chain of the filter of that name
EXTRACTORS: dict[str, Callable[..., Filter]] = {cls.name: _ExtractorFactory(cls) for cls in FILTERS}
