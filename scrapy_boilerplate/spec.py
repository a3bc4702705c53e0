"""Chain specs: what a setting, a request's meta or ``get_extractor`` may say, turned into
a chain of filters. The only module of the package that imports user code.

A *spec* takes the forms a Scrapy setting can hold::

    "article"                                   # a named extractor
    ["num_words_rules", "keep_largest_block"]   # filters (or extractors) by name
    [{"min_words": {"min_words": 20}}]          # a filter with parameters
    ["article", "myproject.filters.DropBylines"]  # import path of a user's filter class

Names are looked up in the registry (:mod:`scrapy_boilerplate.registry`); anything else
with a dot is an import path, which must name a :class:`Filter` subclass: it is checked
before anything is called, and parameters are checked against the constructor's signature
and type hints when the chain is built, so a wrong spec fails then, never per page.

A spec from an untrusted source (a request's meta, built from outside data) is built with
``allowed_imports``: the module prefixes it may import from (none by default in a crawl);
any other import path is rejected without importing anything, and so are the parameters
that reach outside the page, or whose cost a page can inflate
(:data:`TRUSTED_ONLY_PARAMETERS`: a model directory, a thread count, a selector). The
policy holds for every chain built while the spec is (a ``fallback`` entry's spec too).
"""

from __future__ import annotations

import contextvars
import importlib
import inspect
import json
import reprlib
import types
import typing
from collections.abc import Callable, Collection, Mapping, Sequence
from typing import Any

from .errors import ChainSpecError, ModelUnavailableError
from .filters.base import Chain, Filter
from .registry import extractor_factory, filter_class, known_names

__all__ = ["MAX_CHAIN_ENTRIES", "build_chain", "decode_spec"]


def decode_spec(value: Any) -> Any:
    """A spec as written in a setting: JSON text (from ``-s NAME=[...]``) is decoded,
    other text is stripped; anything else is returned as it is. JSON nested too deeply
    for the interpreter's stack raises :class:`ChainSpecError`."""
    if isinstance(value, str):
        text = value.strip()
        if text[:1] in ("[", "{"):
            try:
                return json.loads(text)
            except ValueError:
                return value
            except RecursionError:  # "[" * 100_000, from a request's meta
                raise ChainSpecError(
                    f"the spec is nested too deeply to read: {_shown(text)}"
                ) from None
        return text
    return value


_SHOWN = reprlib.Repr()
_SHOWN.maxlevel, _SHOWN.maxstring, _SHOWN.maxother = 4, 200, 200


def _shown(value: Any) -> str:
    """A spec's value in an error message: its repr, cut short whatever its size or depth
    (a spec may come from a request's meta)."""
    return _SHOWN.repr(value)


#: ``allowed_imports`` of a build_chain call: the policy of the build in progress
_INHERIT: Any = object()
# None: any import path; a tuple: only paths under these module prefixes
_ALLOWED_IMPORTS: contextvars.ContextVar[tuple[str, ...] | None] = contextvars.ContextVar(
    "scrapy_boilerplate_allowed_imports", default=None
)

#: the entries one spec may hold in all, its ``fallback`` specs' included: a chain of
#: hundreds of filters is no real chain, and a request's meta could otherwise make the
#: crawl build (in the reactor's thread) and run hundreds of thousands (1.3 s to build
#: 40,000)
MAX_CHAIN_ENTRIES = 1000
# a one-item list: the entries the build in progress may still add (None: none running)
_ENTRIES_LEFT: contextvars.ContextVar[list[int] | None] = contextvars.ContextVar(
    "scrapy_boilerplate_entries_left", default=None
)


def build_chain(
    spec: Any, label: str | None = None, *, allowed_imports: Collection[str] | None = _INHERIT
) -> Filter:
    """Build a filter (usually a :class:`~scrapy_boilerplate.filters.base.Chain`) from a
    spec; see the module docstring.

    ``allowed_imports``: None (the default, outside another build) lets any import path
    name a filter class; a collection of module prefixes (``["myproject.filters"]``, or
    none) restricts them. Raises :class:`ChainSpecError` naming the bad entry if the spec
    is wrong.
    """
    resets = []
    if _ENTRIES_LEFT.get() is None:  # the outermost build: nested ones share its count
        resets.append((_ENTRIES_LEFT, _ENTRIES_LEFT.set([MAX_CHAIN_ENTRIES])))
    if allowed_imports is not _INHERIT:
        policy = None if allowed_imports is None else tuple(allowed_imports)
        resets.append((_ALLOWED_IMPORTS, _ALLOWED_IMPORTS.set(policy)))
    try:
        return _build(spec, label)
    finally:
        for var, token in reversed(resets):
            var.reset(token)


def _build(spec: Any, label: str | None) -> Filter:
    if isinstance(spec, (str, Mapping)) or _is_filter(spec):
        entries: Sequence[Any] = [spec]
        if isinstance(spec, str) and extractor_factory(spec) is not None:
            return _build_entry(spec, None, 0)
    elif isinstance(spec, Sequence) and not isinstance(spec, (bytes, bytearray)):
        entries = spec
    else:
        raise ChainSpecError(
            f"a chain spec must be a name, a list of entries or a filter, not {_shown(spec)}"
        )
    if not entries:
        raise ChainSpecError("the chain spec is empty: name at least one filter or extractor")
    left = _ENTRIES_LEFT.get()
    if left is not None:
        left[0] -= len(entries)
        if left[0] < 0:
            raise ChainSpecError(
                f"the spec has more than {MAX_CHAIN_ENTRIES} entries in all "
                f"(MAX_CHAIN_ENTRIES): {_shown(spec)}"
            )
    filters: list[Filter] = []
    for index, entry in enumerate(entries):
        if isinstance(entry, Mapping):
            if len(entry) != 1:
                raise ChainSpecError(
                    f"chain entry {index} ({_shown(entry)}) must have exactly one key: "
                    '{"filter_name": {parameters}}'
                )
            ((name, params),) = entry.items()
            if params is None:
                params = {}
            if not isinstance(params, Mapping):
                raise ChainSpecError(
                    f"chain entry {index} ({_shown(name)}): parameters must be a mapping, not {_shown(params)}"
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
            f"chain entry {index} ({_shown(entry)}) must be a name, an import path, a mapping or a filter"
        )
    params = params or {}
    factory = extractor_factory(entry)
    if factory is not None:
        return _call(factory, params, entry, index)
    cls = filter_class(entry)
    if cls is not None:
        return _call(cls, params, entry, index)
    if "." not in entry.strip("."):
        raise ChainSpecError(
            f"chain entry {index} ({_shown(entry)}) is not a known filter or extractor; "
            f"known: {', '.join(known_names())}"
        )
    cls = _import_filter_class(entry, index)
    return _call(cls, params, entry, index)


def _import_filter_class(path: str, index: int) -> type[Filter]:
    """The Filter subclass an import path names; nothing of it is called."""
    allowed = _ALLOWED_IMPORTS.get()
    if allowed is not None and not any(
        path == prefix or path.startswith(prefix + ".") for prefix in allowed
    ):
        raise ChainSpecError(
            f"chain entry {index} ({_shown(path)}): import paths are not allowed here"
            + (f" (only under {', '.join(allowed)})" if allowed else "")
            + "; use a registered name, or allow the module (BOILERPLATE_ALLOWED_IMPORTS)"
        )
    module_name, _, attr = path.rpartition(".")
    try:
        obj = getattr(importlib.import_module(module_name), attr)
    except (ImportError, AttributeError, ValueError, TypeError) as exc:
        raise ChainSpecError(
            f"chain entry {index} ({_shown(path)}) cannot be imported: {exc}"
        ) from None
    if not (isinstance(obj, type) and issubclass(obj, Filter)):
        raise ChainSpecError(
            f"chain entry {index} ({_shown(path)}) is not a Filter subclass (a filter names its "
            "class; register other filters with register_filter)"
        )
    return obj


#: parameters a restricted (untrusted) spec may not set, and why: a model directory is a
#: path on the crawling machine, a thread count the crawl's own resources, a selector a
#: query whose cost the page's author can inflate
TRUSTED_ONLY_PARAMETERS: dict[str, str] = {
    "model_dir": "it names a path on this machine",
    "discussion_model_dir": "it names a path on this machine",
    "threads": "it sets how many threads the process runs",
    "xpath": "libxml2 may take far more than linear time over a page for some XPaths",
    "css": "it becomes an XPath (see xpath)",
}


def _call(factory: Callable[..., Any], params: dict[str, Any], entry: str, index: int) -> Any:
    if _ALLOWED_IMPORTS.get() is not None:
        for name in sorted(set(params) & set(TRUSTED_ONLY_PARAMETERS)):
            raise ChainSpecError(
                f"chain entry {index} ({_shown(entry)}): {_shown(name)} is not allowed here: "
                f"{TRUSTED_ONLY_PARAMETERS[name]}; set it in the project's settings instead"
            )
    problem = _parameter_problem(factory, params)
    if problem:
        raise ChainSpecError(f"chain entry {index} ({_shown(entry)}): bad parameters: {problem}")
    try:
        built = factory(**params)
    except ChainSpecError as exc:  # a parameter that is itself a spec (fallback)
        raise ChainSpecError(f"chain entry {index} ({_shown(entry)}): {exc}") from None
    except ModelUnavailableError:  # says what to install or where the file is missing
        raise
    except (Exception, SystemExit) as exc:  # noqa: BLE001 - a constructor refusing its values
        raise ChainSpecError(
            f"chain entry {index} ({_shown(entry)}): bad parameters: {type(exc).__name__}: {exc}"
        ) from None
    if not callable(built):
        raise ChainSpecError(
            f"chain entry {index} ({_shown(entry)}) did not give a callable filter"
        )
    return built


def _parameter_problem(factory: Callable[..., Any], params: dict[str, Any]) -> str | None:
    """What is wrong with ``params`` for ``factory``: an unknown name or a value of the
    wrong type (by the signature and type hints), or None."""
    try:
        signature = inspect.signature(factory)
    except (TypeError, ValueError):  # no signature to check against
        return None
    accepted = signature.parameters
    if not any(p.kind is p.VAR_KEYWORD for p in accepted.values()):
        unknown = sorted(set(params) - set(accepted))
        if unknown:
            return (
                f"no parameter {', '.join(map(repr, unknown))} (parameters: {', '.join(accepted)})"
            )
    hints = _type_hints(factory)
    for name, value in params.items():
        hint = hints.get(name)
        if hint is not None and not _is_instance(value, hint):
            return f"{name} must be {_hint_name(hint)}, not {_shown(value)}"
    return None


def _type_hints(factory: Callable[..., Any]) -> dict[str, Any]:
    target = inspect.unwrap(factory)
    if isinstance(target, type):
        target = target.__init__
    try:
        return typing.get_type_hints(target)
    except Exception:  # noqa: BLE001 - hints that do not resolve: nothing to check
        return {}


def _is_instance(value: Any, hint: Any) -> bool:
    if hint is Any or hint is object:
        return True
    if hint is type(None):
        return value is None
    origin = typing.get_origin(hint)
    if origin is typing.Union or origin is types.UnionType:
        return any(_is_instance(value, arm) for arm in typing.get_args(hint))
    if origin is not None:
        hint = origin  # list[str] -> list, Mapping[...] -> Mapping
    if hint is bool:
        return isinstance(value, bool)
    if hint is int:
        return isinstance(value, int) and not isinstance(value, bool)
    if hint is float:
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    return not isinstance(hint, type) or isinstance(value, hint)


def _hint_name(hint: Any) -> str:
    return getattr(hint, "__name__", None) or str(hint).replace("typing.", "")
