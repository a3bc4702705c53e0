"""The families of methods, and the one place that registers them.

Each family module declares what it offers, a tuple of filter classes and a dict of named
extractors, and registers nothing itself; :func:`register_families` puts them all in the
registry (:mod:`scrapy_boilerplate.registry`) when the package is imported.

To add a family: write its filters (``filters/`` or a package of its own, beside
``neural/``), declare its ``FILTERS`` and ``EXTRACTORS``, and add a line to
:data:`FAMILIES`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import NamedTuple

from .filters import boilerpipe, density
from .filters.base import Filter
from .filters.comments import CommentSectionFilter
from .filters.fallback import FallbackFilter
from .filters.noscript import NoscriptContent
from .filters.selector import SelectorFilter
from .filters.threads import WithoutCommentThreads
from .neural import boosted, context
from .neural import filter as web2text
from .neural import lm as language_model
from .registry import register_extractor, register_filter

__all__ = ["FAMILIES", "Family", "register_families"]


class Family(NamedTuple):
    """A family of methods: its filter classes and its named extractors."""

    name: str
    filters: tuple[type[Filter], ...]
    extractors: Mapping[str, Callable[..., Filter]]


#: every family, in the order of the registry's listings
FAMILIES: tuple[Family, ...] = (
    Family("boilerpipe", boilerpipe.FILTERS, boilerpipe.EXTRACTORS),
    Family(
        "ours",
        (
            CommentSectionFilter,
            FallbackFilter,
            NoscriptContent,
            SelectorFilter,
            WithoutCommentThreads,
        ),
        {},
    ),
    Family("density", density.FILTERS, density.EXTRACTORS),
    Family("web2text", web2text.FILTERS, web2text.EXTRACTORS),
    Family("context", context.FILTERS, context.EXTRACTORS),
    Family("lm", language_model.FILTERS, language_model.EXTRACTORS),
    Family("boosted", boosted.FILTERS, boosted.EXTRACTORS),
)


def register_families() -> None:
    """Register every family's filters and extractors (again is harmless: same entries)."""
    for family in FAMILIES:
        for cls in family.filters:
            register_filter(cls)
        for name, factory in family.extractors.items():
            register_extractor(name, factory)
