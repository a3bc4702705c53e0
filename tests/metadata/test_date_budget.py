"""htmldate hands a page's unreadable date-like strings to dateparser, 10-35 ms each: a
crafted page of a few hundred dated elements took seconds. Each page may hand it at most
``MAX_PARSES`` strings, none past its deadline; other callers of htmldate are not bounded.
The calls counted here are dateparser's own, on its real parser."""

from __future__ import annotations

import itertools
import time

import pytest

htmldate = pytest.importorskip("htmldate")

from htmldate import extractors  # noqa: E402
from lxml import html as lxml_html  # noqa: E402

from scrapy_boilerplate import extract  # noqa: E402
from scrapy_boilerplate.metadata.date_budget import (  # noqa: E402
    _HOOKS,
    MAX_PARSES,
    date_budget,
    install,
)

_salts = itertools.count()


def dated_page(count: int) -> tuple[str, list[str]]:
    """A story, then ``count`` dated elements, each a distinct string that htmldate's own
    patterns cannot read and dateparser is asked about; and each string's first word,
    which names it (htmldate asks about a string and its trimmed variants)."""
    salt = next(_salts)
    names = [f"x{salt}q{i}" for i in range(count)]
    spans = "".join(
        f'<span class="date">{n} 5 zorblat, qux-{i} 2021/x</span>' for i, n in enumerate(names)
    )
    story = "<p>" + "The storm hit the northern coast on Tuesday night. " * 20 + "</p>"
    return f"<html><body><article>{story}</article>{spans}</body></html>", names


def read_dates(html: str, **options) -> str | None:
    """htmldate's extensive search over a page: its date, or None."""
    return htmldate.find_date(lxml_html.fromstring(html), extensive_search=True, **options)


def asked(calls: list[str]) -> set[str]:
    """The dated elements dateparser was asked about (by their names)."""
    return {call.split()[0] for call in calls}


@pytest.fixture
def dateparser_calls(monkeypatch):
    """The strings dateparser parses from here on (htmldate's one parser, wrapped)."""
    parser = extractors.get_external_parser()
    seen: list[str] = []
    original = parser.get_date_data

    def counted(string, *args, **kwargs):
        seen.append(string)
        return original(string, *args, **kwargs)

    monkeypatch.setattr(parser, "get_date_data", counted)
    extractors.try_date_expr.cache_clear()  # (answers remembered from other tests)
    return seen


def test_this_htmldate_has_the_hook_the_bound_wraps():
    assert install() in _HOOKS


def test_a_page_hands_dateparser_at_most_max_parses_strings(dateparser_calls):
    html, names = dated_page(MAX_PARSES + 40)
    result = extract(html, "https://daily.example/news/storm", metadata=True)
    assert len(dateparser_calls) == MAX_PARSES  # the bound is met, and holds
    assert asked(dateparser_calls) <= set(names)
    assert "northern coast" in result.text
    assert not any(w.startswith("metadata_error") for w in result.warnings)


def test_without_a_budget_every_string_goes_to_dateparser(dateparser_calls):
    # trafilatura calls htmldate in the same process: it keeps htmldate's own behaviour
    html, names = dated_page(MAX_PARSES + 4)
    read_dates(html, original_date=True)
    assert asked(dateparser_calls) == set(names)


def test_no_string_goes_to_dateparser_past_the_deadline(dateparser_calls):
    html, _ = dated_page(5)
    with date_budget(deadline=time.monotonic() - 1) as budget:
        read_dates(html)
    assert dateparser_calls == []
    assert budget.refused >= 5


def test_a_string_turned_away_on_one_page_is_parsed_on_the_next(dateparser_calls):
    # htmldate remembers each string's answer: a refusal must not become that answer
    html, names = dated_page(1)
    with date_budget(limit=0) as budget:
        read_dates(html)
    assert budget.refused and dateparser_calls == []
    with date_budget():
        read_dates(html)
    assert asked(dateparser_calls) == set(names)


def test_budgets_nest_and_the_outer_one_is_back_after_the_inner(dateparser_calls):
    html, names = dated_page(3)
    with date_budget(limit=0) as outer:
        with date_budget(limit=MAX_PARSES):
            read_dates(html)
        assert asked(dateparser_calls) == set(names)
        before = len(dateparser_calls)
        read_dates(dated_page(2)[0])
    assert len(dateparser_calls) == before and outer.refused >= 2


def test_the_first_slow_call_in_a_process_needs_time_for_its_warm_up(dateparser_calls, monkeypatch):
    # dateparser's first call builds its locale tables (about 2 s): with less of the
    # page's budget left the process executor's watchdog killed the worker in it
    from scrapy_boilerplate.metadata import date_budget as budgets

    install()
    monkeypatch.setattr(budgets, "_warm", False)
    html, names = dated_page(2)
    tight = budgets.WARM_UP_SECONDS / 3
    with date_budget(deadline=time.monotonic() + tight) as budget:
        read_dates(html)
    assert dateparser_calls == [] and budget.refused
    with date_budget(deadline=time.monotonic() + 60):
        read_dates(html)
    assert asked(dateparser_calls) == set(names)
    assert budgets._warm
    later, names = dated_page(2)  # warm now: a tight budget is enough
    with date_budget(deadline=time.monotonic() + tight):
        read_dates(later)
    assert set(names) <= asked(dateparser_calls)
