"""The registry: the names a chain spec may use, for filters and for extractors.

The ground floor of the package: it knows the :class:`~scrapy_boilerplate.filters.base.Filter`
contract and nothing else. No family of methods registers itself when imported; they are
all registered from one place, :mod:`scrapy_boilerplate.families`, when the package is
imported. Users add their own with :func:`register_filter` and :func:`register_extractor`.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable
from typing import Any

from .filters.base import Filter, FunctionFilter

__all__ = [
    "DEFAULT_EXTRACTOR",
    "EXTRACTORS",
    "FILTERS",
    "extractor_factory",
    "filter_class",
    "known_names",
    "register_extractor",
    "register_filter",
]

#: registered filters by name (snake_case names and class names): filter classes, or
#: factories of the FunctionFilters that register_filter makes of plain functions
FILTERS: dict[str, Callable[..., Filter]] = {}

#: the extractor used where none is named: ``extract()``, ``get_extractor()``, the command
#: lines, ``BOILERPLATE_EXTRACTOR``, the page object, the archive runners. The learned
#: labeler with the best token F1 on the sets no model trained on and, cross-validated by
#: site, on the sets it trains on (docs/benchmarks.md, docs/neural.md); boilerpipe's
#: ``article`` was the default before 0.2
DEFAULT_EXTRACTOR = "boosted"

#: named extractors: name -> factory returning a fresh chain (its keyword arguments are
#: the extractor's parameters in a spec)
EXTRACTORS: dict[str, Callable[..., Filter]] = {}


def register_filter(obj: Any, name: str | None = None) -> Any:
    """Register a filter under ``name``: a :class:`Filter` subclass (default name: its
    ``name`` attribute, and its class name too), or a plain function ``func(doc) -> bool``
    (default name: the function's), which becomes a :class:`FunctionFilter`. Usable as a
    decorator. Returns what it was given."""
    if isinstance(obj, type):
        if not issubclass(obj, Filter):
            raise TypeError(f"{obj!r} is not a Filter subclass")
        key = name or obj.name
        if not key:
            raise ValueError(f"{obj.__name__} has no name; pass one to register_filter")
        FILTERS[key] = obj
        FILTERS.setdefault(obj.__name__, obj)
        return obj
    if not callable(obj):
        raise TypeError(f"{obj!r} is neither a Filter subclass nor a function filter(doc) -> bool")
    key = name or getattr(obj, "__name__", "")
    if not key or key == "<lambda>":
        raise ValueError(f"{obj!r} has no name; pass one to register_filter")
    factory = functools.partial(FunctionFilter, obj)
    factory.name = key  # type: ignore[attr-defined]  # what known_names() lists
    FILTERS[key] = factory
    return obj


def register_extractor(name: str, factory: Callable[..., Filter]) -> None:
    """Make ``factory()`` (a chain or filter) available as the extractor ``name``."""
    EXTRACTORS[name] = factory


def filter_class(name: str) -> Callable[..., Filter] | None:
    """The filter class (or function filter's factory) registered under ``name``, or None."""
    return FILTERS.get(name)


def extractor_factory(name: str) -> Callable[..., Filter] | None:
    """The factory of the extractor registered under ``name``, or None."""
    return EXTRACTORS.get(name)


def known_names() -> list[str]:
    """Every extractor name and every filter's short name, sorted (for error messages)."""
    filters: Iterable[str] = (
        name for name, cls in FILTERS.items() if name == getattr(cls, "name", name)
    )
    return sorted(set(EXTRACTORS) | set(filters))
