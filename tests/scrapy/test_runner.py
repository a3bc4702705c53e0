"""The crawl's extraction runner (``_scrapy/runner.py``): extraction off the reactor thread,
in worker threads or worker processes; a worker process that dies; workers started by the
add-on before the spider opens; one runner per crawl; the fork server; other reactors."""

from __future__ import annotations

import threading

import pytest
import scrapy
from scrapy.utils.defer import deferred_f_from_coro_f

from scrapy_boilerplate.filters import Filter

from .helpers import ADDON_SETTINGS, OneItemSpider, article_page

# -- off the reactor thread ------------------------------------------------------------------
THREADS_SEEN: list[threading.Thread] = []


class RecordThread(Filter):
    """Records the thread it runs in (module-level: Scrapy deep-copies settings)."""

    name = "record_thread"

    def __call__(self, doc):
        THREADS_SEEN.append(threading.current_thread())
        return False


@pytest.mark.parametrize("workers", [2, 0])
@deferred_f_from_coro_f
async def test_extraction_runs_off_the_reactor_thread(http_server, crawl, workers):
    urls = [http_server.route(f"/{i}.html", article_page(f"page {i}")) for i in range(6)]
    THREADS_SEEN.clear()
    settings = {
        **ADDON_SETTINGS,
        "BOILERPLATE_EXTRACTOR": ["article", RecordThread()],
        "BOILERPLATE_WORKERS": workers,
    }
    items, crawler = await crawl(OneItemSpider, settings, start_urls=urls)
    assert len(THREADS_SEEN) == 6
    main = threading.main_thread()
    if workers:
        assert all(t is not main for t in THREADS_SEEN)
    else:  # 0: inline, on the reactor thread
        assert all(t is main for t in THREADS_SEEN)
    assert crawler.stats.get_value("boilerplate/extracted_count") == 6


# -- worker processes ---------------------------------------------------------------------
class KillWorker(Filter):
    """A test filter that ends its worker process on pages whose title says so (as the
    kernel's out-of-memory killer would)."""

    name = "kill_worker"

    def __call__(self, doc):
        import os

        if doc.title and "kill the worker" in doc.title:
            os._exit(9)
        return False


@deferred_f_from_coro_f
async def test_a_worker_process_that_dies_loses_no_item(http_server, crawl):
    good = [http_server.route(f"/{i}.html", article_page(f"page {i}")) for i in range(6)]
    fatal = http_server.route("/fatal.html", article_page("x", title="kill the worker"))
    settings = {
        **ADDON_SETTINGS,
        "BOILERPLATE_EXTRACTOR": ["article", KillWorker()],
        "BOILERPLATE_EXECUTOR": "process",
        "BOILERPLATE_WORKERS": 1,
        "CONCURRENT_REQUESTS": 1,  # one call in flight: only the fatal page fails
    }
    items, crawler = await crawl(OneItemSpider, settings, start_urls=[*good[:3], fatal, *good[3:]])
    by_url = {i["url"]: i["result"] for i in items}
    assert len(items) == 7
    assert by_url[fatal]["reason"] == "error" and "WorkerDied" in by_url[fatal]["error"]
    stats = crawler.stats
    assert stats.get_value("boilerplate/error_count/WorkerDied") == 1
    assert stats.get_value("boilerplate/extracted_count") == 6
    # the pages after it went to a fresh worker
    assert all("The story about " in by_url[u]["text"] for u in good[3:])


class RecordsTheWorkersAtOpening(OneItemSpider):
    """Notes, when the spider opens, whether the crawl's worker processes were started."""

    name = "records_workers"

    @classmethod
    def from_crawler(cls, crawler, *args, **kwargs):
        spider = super().from_crawler(crawler, *args, **kwargs)
        crawler.signals.connect(spider.record_workers, signal=scrapy.signals.spider_opened)
        return spider

    def record_workers(self, spider):
        from scrapy_boilerplate._scrapy import runner as runner_module
        from scrapy_boilerplate.parallel.process_pool import ProcessPool

        pool = runner_module._CRAWL_RUNNERS[self.crawler]._pool
        self.workers_started_at_opening = isinstance(pool, ProcessPool) and (
            pool._early is not None or bool(pool._workers)
        )


@deferred_f_from_coro_f
async def test_the_addon_starts_worker_processes_before_the_spider_opens(http_server, crawl):
    """Scrapy sets a crawl up in about the time a worker takes to start, so the first
    pages need not wait; the middleware uses the workers the add-on started."""
    from scrapy_boilerplate._scrapy import runner as runner_module
    from scrapy_boilerplate.middlewares import BoilerplateDownloaderMiddleware

    urls = [http_server.route(f"/{i}.html", article_page(f"early {i}")) for i in range(3)]
    settings = {**ADDON_SETTINGS, "BOILERPLATE_EXECUTOR": "process", "BOILERPLATE_WORKERS": 1}
    items, crawler = await crawl(RecordsTheWorkersAtOpening, settings, start_urls=urls)
    assert crawler.spider.workers_started_at_opening
    assert all("The story about early" in i["result"]["text"] for i in items)
    (middleware,) = [
        m
        for m in crawler.engine.downloader.middleware.middlewares
        if isinstance(m, BoilerplateDownloaderMiddleware)
    ]
    assert middleware.runner is runner_module._CRAWL_RUNNERS[crawler]
    assert middleware.runner._pool is None  # closed with the crawl


def test_a_crawl_has_one_runner_for_all_its_components():
    from scrapy.utils.test import get_crawler

    from scrapy_boilerplate._scrapy.runner import crawl_runner

    crawler = get_crawler(scrapy.Spider)
    runner = crawl_runner(crawler, 2, "thread")
    assert crawl_runner(crawler, 2, "thread") is runner
    assert crawl_runner(get_crawler(scrapy.Spider), 2, "thread") is not runner
    other = crawl_runner(crawler, 1, "process")  # settings changed: a new runner
    assert other is not runner and crawl_runner(crawler, 1, "process") is other


@deferred_f_from_coro_f
async def test_worker_processes_fork_from_a_server_that_loaded_the_engine_once():
    import multiprocessing
    import os

    from scrapy_boilerplate._scrapy.runner import ExtractionRunner

    runner = ExtractionRunner(2, "process")
    try:
        worker_parents = {await runner.run(os.getppid) for _ in range(4)}
        worker_pids = {await runner.run(os.getpid) for _ in range(4)}
    finally:
        runner.close()
    assert os.getpid() not in worker_pids
    if "forkserver" in multiprocessing.get_all_start_methods():
        # not children of the crawl (whose threads make fork unsafe): of the fork server
        assert worker_parents.isdisjoint({os.getpid()})


@pytest.mark.parametrize("asyncio_loop", [True, False])
@deferred_f_from_coro_f
async def test_worker_processes_under_asyncio_and_other_reactors(monkeypatch, asyncio_loop):
    """Under asyncio the event loop reads the workers' sockets; under other reactors a
    standard ProcessPoolExecutor is awaited from a thread. Both answer the same."""
    import os
    from concurrent.futures import ProcessPoolExecutor

    from scrapy_boilerplate._scrapy import runner as runner_module
    from scrapy_boilerplate.parallel.process_pool import ProcessPool

    monkeypatch.setattr(runner_module, "asyncio_available", lambda: asyncio_loop)
    runner = runner_module.ExtractionRunner(1, "process")
    try:
        pids = {await runner.run(os.getpid) for _ in range(3)}
        assert isinstance(runner._pool, ProcessPool if asyncio_loop else ProcessPoolExecutor)
    finally:
        runner.close()
    assert len(pids) == 1 and os.getpid() not in pids


def collector_state():
    """What a process's cyclic garbage collector does (run in a worker)."""
    import gc

    return gc.isenabled(), gc.get_threshold()[0], gc.get_freeze_count() > 0


@pytest.mark.parametrize("asyncio_loop", [True, False])
@deferred_f_from_coro_f
async def test_worker_processes_freeze_what_they_inherit_and_collect_less_often(
    monkeypatch, asyncio_loop
):
    # the engine's modules are scanned by no collection; the crawl's own collector is
    # the user's and stays as it was
    from scrapy_boilerplate._scrapy import runner as runner_module
    from scrapy_boilerplate.parallel.process_pool import WORKER_GC_THRESHOLD

    monkeypatch.setattr(runner_module, "asyncio_available", lambda: asyncio_loop)
    here = collector_state()
    runner = runner_module.ExtractionRunner(1, "process")
    try:
        assert await runner.run(collector_state) == (True, WORKER_GC_THRESHOLD, True)
    finally:
        runner.close()
    assert collector_state() == here


@pytest.mark.parametrize("asyncio_loop", [True, False])
@deferred_f_from_coro_f
async def test_a_dead_worker_gives_worker_died_and_one_more_try_under_any_reactor(
    monkeypatch, asyncio_loop, tmp_path
):
    import os

    from scrapy_boilerplate._scrapy import runner as runner_module
    from scrapy_boilerplate.parallel.process_pool import WorkerDied

    from ..parallel.test_process_pool import die_the_first_time

    monkeypatch.setattr(runner_module, "asyncio_available", lambda: asyncio_loop)
    runner = runner_module.ExtractionRunner(1, "process")
    try:
        with pytest.raises(WorkerDied):
            await runner.run(os._exit, 9)  # it ends every worker it is given to
        assert await runner.run(die_the_first_time, str(tmp_path / "died")) == "second try"
    finally:
        runner.close()


# -- the time budget --------------------------------------------------------------------
class Sleepy(Filter):
    """Sleeps on pages whose title says so: a step the engine cannot interrupt."""

    name = "sleepy"

    def __init__(self, seconds: float = 30.0) -> None:
        self.seconds = seconds

    def __call__(self, doc):
        import time

        if doc.title and "sleep" in doc.title:
            time.sleep(self.seconds)
        return False


@pytest.mark.parametrize("executor", ["process", "thread"])
@deferred_f_from_coro_f
async def test_a_page_over_the_time_budget_times_out_and_the_crawl_goes_on(
    http_server, crawl, executor
):
    """Processes: the worker holding the page is killed past the hard limit (1.5 times the
    budget and a second) and replaced; the pages queued behind it are extracted. Threads:
    the engine's next check ends the page (here between filters: a thread cannot be
    stopped inside a step)."""
    import time

    good = [http_server.route(f"/{i}.html", article_page(f"page {i}")) for i in range(6)]
    slow = http_server.route("/slow.html", article_page("x", title="sleep here"))
    # processes: one sleep far past the hard limit; threads: two steps past the budget
    chain = [Sleepy(30.0)] if executor == "process" else [Sleepy(0.8), Sleepy(0.8)]
    settings = {
        **ADDON_SETTINGS,
        "BOILERPLATE_EXTRACTOR": [*chain, "article"],
        "BOILERPLATE_EXECUTOR": executor,
        "BOILERPLATE_WORKERS": 1,
        "BOILERPLATE_TIMEOUT": 0.5,
    }
    started = time.monotonic()
    items, crawler = await crawl(OneItemSpider, settings, start_urls=[slow, *good])
    assert time.monotonic() - started < 20
    by_url = {i["url"]: i["result"] for i in items}
    assert len(items) == 7
    assert by_url[slow]["reason"] == "timeout" and by_url[slow]["text"] == ""
    assert all("The story about " in by_url[u]["text"] for u in good)
    assert crawler.stats.get_value("boilerplate/timeout_count") == 1
    assert crawler.stats.get_value("boilerplate/extracted_count") == 6


def test_a_crawl_that_reads_metadata_has_a_runner_whose_workers_start_with_dates_warm():
    from scrapy.utils.test import get_crawler

    from scrapy_boilerplate._scrapy.runner import config_runner
    from scrapy_boilerplate.settings import load_config

    def runner_for(settings):
        crawler = get_crawler(scrapy.Spider, settings)
        return config_runner(crawler, load_config(crawler.settings))

    assert not runner_for({"BOILERPLATE_EXECUTOR": "process"}).metadata
    fields = {"BOILERPLATE_FIELDS": {"published": "metadata.datePublished"}}
    assert runner_for({"BOILERPLATE_EXECUTOR": "process", **fields}).metadata
    assert runner_for({"BOILERPLATE_ITEM_PRESET": "zyte"}).metadata
