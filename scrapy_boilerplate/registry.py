"""The registry: the names a chain spec may use, for filters and for extractors.

The ground floor of the package: it knows the :class:`~scrapy_boilerplate.filters.base.Filter`
contract and nothing else. No family of methods registers itself when imported; they are
all registered from one place, :mod:`scrapy_boilerplate.families`, when the package is
imported. Users add their own with :func:`register_filter` and :func:`register_extractor`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from .filters.base import Filter

__all__ = [
    "EXTRACTORS",
    "FILTERS",
    "extractor_factory",
    "filter_class",
    "known_names",
    "register_extractor",
    "register_filter",
]

#: registered filter classes by name (snake_case names and class names)
FILTERS: dict[str, type[Filter]] = {}

#: named extractors: name -> factory returning a fresh chain (its keyword arguments are
#: the extractor's parameters in a spec)
EXTRACTORS: dict[str, Callable[..., Filter]] = {}


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


def register_extractor(name: str, factory: Callable[..., Filter]) -> None:
    """Make ``factory()`` (a chain or filter) available as the extractor ``name``."""
    EXTRACTORS[name] = factory


def filter_class(name: str) -> type[Filter] | None:
    """The filter class registered under ``name``, or None."""
    return FILTERS.get(name)


def extractor_factory(name: str) -> Callable[..., Filter] | None:
    """The factory of the extractor registered under ``name``, or None."""
    return EXTRACTORS.get(name)


def known_names() -> list[str]:
    """Every extractor name and every filter's short name, sorted (for error messages)."""
    filters: Iterable[str] = (name for name, cls in FILTERS.items() if name == cls.name)
    return sorted(set(EXTRACTORS) | set(filters))
