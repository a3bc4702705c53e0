"""With metadata on, the process executor's fork server makes dateparser's slow first call
(its locale tables, ~2 s) once, before it forks the workers; where the fork server did
not (an earlier pool of the process started it, or the platform has none), each worker
makes it before it takes a page.

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

    mode = sys.argv[1]
    if mode == "cold":  # neither the fork server nor the workers warm dateparser up
        process_context, Pool = process_pool.process_context, process_pool.ProcessPool
        process_pool.ProcessPool = lambda workers, context=None, warm_dates=False: Pool(
            workers, process_context(False)
        )
    elif mode == "spawn":  # a platform without fork server
        import multiprocessing
        process_pool.process_context = lambda warm_dates=False: multiprocessing.get_context(
            "spawn"
        )

    story = "<p>" + "The storm hit the northern coast on Tuesday night. " * 20 + "</p>"
    html = f'<html><body><article>{story}</article><span class="date">3 ноября 2020</span>'
    pages = [
        ArchivedPage(f"http://127.0.0.1/{i}", html.encode(), "text/html; charset=utf-8",
                     None, None, 200, "test")
        for i in range(4)
    ]
    if mode == "after-a-pool-without-metadata":  # that pool starts the fork server
        assert len(list(extract_pages(pages, get_extractor(), workers=2))) == 4
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


def test_workers_warm_up_themselves_where_the_fork_server_did_not():
    # the fork server is one per process: a first pool that read no metadata started it
    assert dates_read_in_workers("after-a-pool-without-metadata") == ["None", "2020-11-03"] * 4


def test_spawned_workers_warm_up_themselves():
    assert dates_read_in_workers("spawn") == ["None", "2020-11-03"] * 4


def test_cold_workers_leave_them_to_a_page_with_time_for_the_first_call():
    # what the warm-up changes: the same pages, only the year that htmldate's patterns read
    assert dates_read_in_workers("cold") == ["None", "2020-01-01"] * 4


def test_warm_up_in_this_process():
    run = run_python(
        "from scrapy_boilerplate.metadata import date_budget as d;"
        " print(d._warm, d.warm_up(), d._warm)"
    )
    assert run.stdout.split() == ["False", "True", "True"], run.stderr


# what a worker answers to "is dateparser warm here?": an expression for the builtin eval
# (a function of the test's script would not unpickle in a worker)
IS_WARM = "__import__('scrapy_boilerplate.metadata.date_budget', fromlist=['_'])._warm"


def test_a_call_s_time_limit_does_not_run_while_its_worker_warms_up():
    # a fork server that did not warm up (started for no metadata), then a pool that
    # wants it: the worker takes ~2 s to warm up, the first call may take 0.5 s
    run = run_python(
        textwrap.dedent(
            """
            import asyncio, sys, time
            from scrapy_boilerplate.parallel.process_pool import ProcessPool, process_context

            async def main():
                pool = ProcessPool(1, process_context(False), warm_dates=True)
                started = time.monotonic()
                try:
                    warm = await pool.run(eval, sys.argv[1], limit=0.5)
                    print(warm, time.monotonic() - started > 0.5)
                finally:
                    pool.close()

            asyncio.run(main())
            """
        ),
        IS_WARM,
    )
    assert run.stdout.split() == ["True", "True"], run.stderr


def test_the_standard_pool_of_other_reactors_warms_its_workers_up_too():
    # the crawl's runner off asyncio: a ProcessPoolExecutor, its initializer warms up
    run = run_python(
        textwrap.dedent(
            """
            import sys
            from scrapy_boilerplate._scrapy.runner import ExtractionRunner

            answers = []
            for metadata in (False, True):  # the first starts the fork server, cold
                runner = ExtractionRunner(1, "process", metadata=metadata)
                try:
                    answers.append(runner._get_pool(on_asyncio=False).submit(eval, sys.argv[1]).result())
                finally:
                    runner.close()
            print(*answers)
            """
        ),
        IS_WARM,
    )
    assert run.stdout.split() == ["False", "True"], run.stderr
