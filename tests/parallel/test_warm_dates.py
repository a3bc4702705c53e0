"""With metadata on, the process executor's fork server makes dateparser's slow first call
(its locale tables, ~2 s) once, before it forks the workers.

Cold, a process makes that call only for a page with 3 s of its budget left
(``date_budget.WARM_UP_SECONDS``), so under a shorter ``timeout`` no worker would ever
read a date that only dateparser can. Each test runs in a process of its own: the fork
server is one per process, started by the first pool.
"""

from __future__ import annotations

import textwrap

import pytest

from ..helpers import run_python

pytest.importorskip("htmldate")

# A Russian date: htmldate's own patterns read only its year (2020-01-01), dateparser
# the day. Four pages to two workers, each page with a budget of 1 s.
EXTRACT_IN_WORKERS = textwrap.dedent(
    """
    import sys

    from scrapy_boilerplate import get_extractor
    from scrapy_boilerplate.archives.batch import extract_pages
    from scrapy_boilerplate.archives.records import ArchivedPage
    from scrapy_boilerplate.parallel import process_pool

    if sys.argv[1] == "cold":  # a fork server that does not warm dateparser
        process_context = process_pool.process_context
        process_pool.process_context = lambda warm_dates=False: process_context(False)

    story = "<p>" + "The storm hit the northern coast on Tuesday night. " * 20 + "</p>"
    html = f'<html><body><article>{story}</article><span class="date">3 ноября 2020</span>'
    pages = [
        ArchivedPage(f"http://127.0.0.1/{i}", html.encode(), "text/html; charset=utf-8",
                     None, None, 200, "test")
        for i in range(4)
    ]
    results = extract_pages(
        pages, get_extractor(), workers=2, timeout=1.0, formats=("metadata",)
    )
    for result in results:
        print(result.get("reason"), result["metadata"].get("datePublished"))
    """
)


def dates_read_in_workers(fork_server: str) -> list[str]:
    run = run_python(EXTRACT_IN_WORKERS, fork_server)
    assert run.returncode == 0, run.stderr
    return run.stdout.split()


def test_workers_of_a_warmed_fork_server_read_dateparsers_dates_under_a_short_timeout():
    assert dates_read_in_workers("warm") == ["None", "2020-11-03"] * 4


def test_cold_workers_leave_them_to_a_page_with_time_for_the_first_call():
    # what the warm-up changes: the same pages, only the year that htmldate's patterns read
    assert dates_read_in_workers("cold") == ["None", "2020-01-01"] * 4


def test_warm_up_in_this_process():
    run = run_python(
        "from scrapy_boilerplate.metadata import date_budget as d;"
        " print(d._warm, d.warm_up(), d._warm)"
    )
    assert run.stdout.split() == ["False", "True", "True"], run.stderr
