"""A bound on the strings htmldate hands to dateparser, per page.

A date-like string that htmldate's own patterns cannot read goes to dateparser, which
tries each of its ~200 locales on it: 10-35 ms a string once warm. Real pages send few:
none on 95 % of the ~4,600 pages of the data sets, at most 35 on one. A crafted page sends
one per dated element: 27 KB of 400 distinct strings in ``<span class="date">`` took
10 s, and htmldate reads up to 1,000 such elements, then the titles, headings and
``<time>`` elements.

:func:`date_budget` lets a page's htmldate run hand at most ``limit`` strings to dateparser,
and none once its ``deadline`` has passed (nor the process's first, slow one with less than
:data:`WARM_UP_SECONDS` left); past that a string reads as no date, so htmldate goes on
with its cheap patterns. The bound sits on the one function htmldate's
``try_date_expr`` calls for dateparser's answer, wrapped once per process
(:func:`install`). The wrapper does nothing outside :func:`date_budget`: another caller of
htmldate in the process (trafilatura) is not bounded.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

__all__ = ["MAX_PARSES", "WARM_UP_SECONDS", "date_budget", "install", "warm_up"]

#: strings one page may hand to dateparser: about 1 s at most. Of the ~4,600 pages of the
#: data sets one hands it more (35), and its date stays the same; at 16, five pages meet
#: the bound and one unlabelled page's date moves
MAX_PARSES = 32
#: what dateparser's first call in a process takes (it builds its tables of ~200 locales:
#: 2.1 s measured, later calls 10-35 ms): it is made only with this much of a page's time
#: budget left. Under a tight ``timeout`` the process executor's watchdog (1.5 times the
#: budget and a second) killed the worker in that call, and each new worker did the same
WARM_UP_SECONDS = 3.0
#: what :func:`warm_up` asks dateparser about: no locale reads it, so every one is loaded
_WARM_UP_STRING = "x 5 zorblat, qux-1 2021/x"
#: the names under which htmldate versions reach dateparser from ``try_date_expr``
_HOOKS = ("_external_date", "external_date_parser")

_state = threading.local()
_lock = threading.Lock()
_hooked: str | None = None
_warm = False  # whether dateparser answered once in this process


class _Budget:
    __slots__ = ("deadline", "left", "refused")

    def __init__(self, limit: int, deadline: float | None) -> None:
        self.left = limit
        self.deadline = deadline
        self.refused = 0


def install() -> str | None:
    """Wrap htmldate's call into dateparser, once per process; the name of the wrapped
    function, or None if this htmldate reaches dateparser some other way (then nothing is
    bounded, and :func:`date_budget` changes nothing)."""
    global _hooked
    with _lock:
        if _hooked is not None:
            return _hooked
        from htmldate import extractors

        caller = getattr(extractors.try_date_expr, "__wrapped__", extractors.try_date_expr)
        called = getattr(getattr(caller, "__code__", None), "co_names", ())
        name = next((n for n in _HOOKS if n in called and hasattr(extractors, n)), None)
        if name is None:
            return None
        original = getattr(extractors, name)

        def budgeted(*args: Any, **kwargs: Any) -> Any:
            global _warm
            budget = getattr(_state, "budget", None)
            if budget is not None:
                # (the process's first call builds dateparser's locale tables: it needs
                # WARM_UP_SECONDS of the budget, not a moment)
                need = 0.0 if _warm else WARM_UP_SECONDS
                out_of_time = (
                    budget.deadline is not None and time.monotonic() + need > budget.deadline
                )
                if budget.left <= 0 or out_of_time:
                    budget.refused += 1
                    return None  # (no date from this string: htmldate goes on)
                budget.left -= 1
            answer = original(*args, **kwargs)
            _warm = True
            return answer

        budgeted.__wrapped__ = original  # type: ignore[attr-defined]
        setattr(extractors, name, budgeted)
        _hooked = name
        return name


@contextmanager
def date_budget(limit: int = MAX_PARSES, deadline: float | None = None) -> Iterator[Any]:
    """Within the block, this thread's htmldate hands at most ``limit`` strings to
    dateparser, and none past ``deadline`` (``time.monotonic()``); yields the budget
    (``refused``: the strings turned away). A string turned away is no date in
    htmldate's cache either (``try_date_expr`` remembers its answers): that cache is
    emptied after a page that met the bound, so a later page's same string is parsed."""
    install()
    budget = _Budget(limit, deadline)
    outer = getattr(_state, "budget", None)
    _state.budget = budget
    try:
        yield budget
    finally:
        _state.budget = outer
        if budget.refused:
            from htmldate import extractors

            clear = getattr(extractors.try_date_expr, "cache_clear", None)
            if clear is not None:
                clear()


def warm_up() -> bool:
    """Make dateparser's slow first call now (2.1 s: it loads its ~200 locales), outside any
    page's budget, so that later pages in this process, and the processes forked from it,
    find it warm: their dates are then read under any ``timeout``. The process executor's
    fork server does this when the crawl reads metadata
    (:mod:`scrapy_boilerplate.parallel.warm_dates`). Whether dateparser is warm now (False
    without htmldate, the ``[article]`` extra)."""
    try:
        from htmldate import extractors
    except ImportError:
        return False
    name = install()
    if name is None:
        return False  # (no hook: nothing waits for the warm-up either)
    try:
        # outside any budget the wrapper lets the call through and marks dateparser warm
        getattr(extractors, name)(_WARM_UP_STRING)
    except Exception:  # noqa: BLE001 - a dateparser that fails here fails on pages, bounded
        return False
    return _warm
