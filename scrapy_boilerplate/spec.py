"""Chain specs: what a setting, a request's meta or ``get_extractor`` may say, turned into
a chain of filters. The only module of the package that imports user code.

A *spec* takes the forms a Scrapy setting can hold::

    "article"                                   # a named extractor
    ["num_words_rules", "keep_largest_block"]   # filters (or extractors) by name
    [{"min_words": {"min_words": 20}}]          # a filter with parameters
    ["article", "myproject.filters.DropBylines"]  # import path of a user's filter class

Names are looked up in the registry (:mod:`scrapy_boilerplate.registry`); anything else
with a dot is an import path.
"""

from __future__ import annotations

import importlib
import json
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from .errors import ChainSpecError
from .filters.base import Chain, Filter
from .registry import extractor_factory, filter_class, known_names

__all__ = ["build_chain", "decode_spec"]


def decode_spec(value: Any) -> Any:
    """A spec as written in a setting: JSON text (from ``-s NAME=[...]``) is decoded,
    other text is stripped; anything else is returned as it is."""
    if isinstance(value, str):
        text = value.strip()
        if text[:1] in ("[", "{"):
            try:
                return json.loads(text)
            except ValueError:
                return value
        return text
    return value


def build_chain(spec: Any, label: str | None = None) -> Filter:
    """Build a filter (usually a :class:`~scrapy_boilerplate.filters.base.Chain`) from a
    spec; see the module docstring.

    Raises :class:`ChainSpecError` naming the bad entry if the spec is wrong.
    """
    if isinstance(spec, (str, Mapping)) or _is_filter(spec):
        entries: Sequence[Any] = [spec]
        if isinstance(spec, str) and extractor_factory(spec) is not None:
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
    factory = extractor_factory(entry)
    if factory is not None:
        return _call(factory, params, entry, index)
    cls = filter_class(entry)
    if cls is not None:
        return _call(cls, params, entry, index)
    if "." not in entry:
        raise ChainSpecError(
            f"chain entry {index} ({entry!r}) is not a known filter or extractor; "
            f"known: {', '.join(known_names())}"
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
