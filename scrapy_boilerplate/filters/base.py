"""The filter contract, ``filter(doc) -> bool`` (True if anything changed), and the
:class:`Chain` that composes filters.

This is boilerpipe's ``BoilerpipeFilter.process`` contract. A filter's parameters are its
constructor arguments (with the published defaults), kept as attributes of the same name;
a filter holds no per-document state, so one instance serves every page and thread, and
pickles (for worker processes) as plain data.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Iterable, Iterator
from typing import Any, ClassVar

from ..document import Document, TextBlock

__all__ = ["Chain", "Filter", "FunctionFilter", "neighbour_values", "set_flags"]


class Filter:
    """Base class of every filter and chain.

    Subclasses set ``name`` (the registry name used in settings, e.g.
    ``"num_words_rules"``) and implement ``__call__``.
    """

    #: the name this filter is registered under (snake_case)
    name: ClassVar[str] = ""

    def __call__(self, doc: Document) -> bool:  # pragma: no cover - interface
        raise NotImplementedError

    def params(self) -> dict[str, Any]:
        """The constructor arguments this instance was built with."""
        out: dict[str, Any] = {}
        for pname, param in inspect.signature(type(self).__init__).parameters.items():
            if pname == "self" or param.kind in (param.VAR_POSITIONAL, param.VAR_KEYWORD):
                continue
            if hasattr(self, pname):
                out[pname] = getattr(self, pname)
        return out

    def __repr__(self) -> str:
        args = ", ".join(f"{k}={v!r}" for k, v in self.params().items())
        return f"{type(self).__name__}({args})"

    def __eq__(self, other: object) -> bool:
        return type(self) is type(other) and self.params() == other.params()  # type: ignore[attr-defined]

    def __hash__(self) -> int:
        return hash((type(self), tuple(sorted((k, repr(v)) for k, v in self.params().items()))))


class FunctionFilter(Filter):
    """A filter made of a plain function ``func(doc) -> bool`` (what ``register_filter``
    makes of a function); it pickles when the function is defined at module level."""

    name = "function"

    def __init__(self, func: Callable[[Document], bool]) -> None:
        self.func = func

    def __call__(self, doc: Document) -> bool:
        return bool(self.func(doc))

    def __repr__(self) -> str:
        # the repr is the chain's memory key (Extractor.memory_key): a name that two
        # different functions can share ("<lambda>", a helper of the same name in another
        # module, one defined inside a function) must not make their chains one
        qualname = getattr(self.func, "__qualname__", None)
        if qualname is None:  # a callable object: its own repr
            return f"FunctionFilter({self.func!r})"
        name = f"{getattr(self.func, '__module__', None)}.{qualname}"
        if "<" in qualname:  # <lambda>, <locals>: not a name it can be found by
            name += f" at {id(self.func):#x}"
        return f"FunctionFilter({name!r})"


class Chain(Filter):
    """A filter made of filters, run in order; True if any of them changed something.

    When ``doc.trace`` is set, each block records in ``decided_by`` the name of the last
    filter that flipped its content flag (for the JSON view of a wrong page). With a
    ``doc.deadline``, the time budget is checked before each filter.
    """

    name = "chain"

    def __init__(self, filters: Iterable[Callable[[Document], bool]], label: str = "chain") -> None:
        self.filters = tuple(filters)
        self.label = label

    def __call__(self, doc: Document) -> bool:
        changed = False
        check = doc.check_deadline if doc.deadline is not None else None
        if not doc.trace:
            for f in self.filters:
                if check is not None:
                    check()
                if f(doc):
                    changed = True
            return changed
        for f in self.filters:
            if check is not None:
                check()
            if isinstance(f, Chain):
                changed |= f(doc)
                continue
            before = {id(b): b.is_content for b in doc.blocks}
            if f(doc):
                changed = True
            who = getattr(f, "name", "") or type(f).__name__
            for block in doc.blocks:
                # (a block the filter made itself keeps what its own chain recorded)
                was = before.get(id(block))
                if was is not None and was != block.is_content:
                    block.decided_by = who
        return changed

    def __repr__(self) -> str:
        inner = ", ".join(repr(f) for f in self.filters)
        return f"Chain({self.label!r}: {inner})"

    def __len__(self) -> int:
        return len(self.filters)

    def __iter__(self) -> Iterator[Callable[[Document], bool]]:
        return iter(self.filters)


def neighbour_values(blocks: list[TextBlock], attribute: str) -> tuple[list, list, list]:
    """An attribute of every block, of its predecessor and of its successor (0 at the
    ends, as boilerpipe's all-zero neighbour blocks give): for fast classifier loops."""
    values = [getattr(b, attribute) for b in blocks]
    if not values:
        return [], [], []
    return [0, *values[:-1]], values, [*values[1:], 0]


def set_flags(blocks: list[TextBlock], flags: Any) -> bool:
    """Set every block's content flag; True if any changed."""
    changed = False
    for block, flag in zip(blocks, flags, strict=True):
        if block.is_content is not flag:
            block.is_content = flag
            changed = True
    return changed
