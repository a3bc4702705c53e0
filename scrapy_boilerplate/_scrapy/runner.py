"""Where extractions run: worker threads or processes, a bounded number at once, and the
one runner a crawl's components share."""

from __future__ import annotations

import pickle
import threading
import weakref
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import TYPE_CHECKING, Any, TypeVar

from scrapy.utils.defer import maybe_deferred_to_future
from twisted.internet.defer import DeferredSemaphore

from ..extraction import TIMEOUT, Extraction
from ..parallel.process_pool import (
    ProcessPool,
    WorkerDied,
    WorkerTimeout,
    hard_limit,
    prepare_worker,
    process_context,
)
from ..parallel.worker import extract_pickled, extract_to_dict
from ..site_memory import SiteMemory
from .compat import asyncio_available, asyncio_expected, run_in_thread

if TYPE_CHECKING:
    from ..settings import BoilerplateConfig

__all__ = ["ExtractionRunner", "crawl_runner", "hard_limit"]

_T = TypeVar("_T")


def _submit_and_wait(pool: ProcessPoolExecutor, func: Callable[..., _T], args: tuple) -> _T:
    return pool.submit(func, *args).result()


class ExtractionRunner:
    """Runs extraction calls in worker threads (or processes), at most ``workers`` at once
    (processes: ``2 * workers`` handed over, one running and one queued per worker).

    ``workers=0`` runs them inline, on the reactor thread. The bound is a Twisted
    ``DeferredSemaphore`` (awaited through ``maybe_deferred_to_future``), which works with
    the asyncio reactor, other reactors and Scrapy's reactor-less mode alike.

    With ``executor="process"`` the calls go to ``workers`` processes (started lazily;
    arguments and results must pickle), which fork from a "forkserver" that has imported
    the engine once (where the platform has one; else "spawn", each worker importing it
    anew). Under asyncio they are a :class:`~scrapy_boilerplate.parallel.process_pool.ProcessPool`,
    whose sockets the event loop reads itself; under other reactors a
    ``ProcessPoolExecutor``, awaited from a thread.

    ``site_memory`` (sites, 0: none) is the size of the crawl's memory of each site's
    template (:class:`~scrapy_boilerplate.site_memory.SiteMemory`): one the threads share,
    or one in each worker process.

    ``metadata``: the crawl reads metadata, so the fork server makes dateparser's slow
    first call before it forks the workers
    (:func:`~scrapy_boilerplate.parallel.process_pool.process_context`).
    """

    def __init__(
        self, workers: int, executor: str = "thread", site_memory: int = 0, metadata: bool = False
    ) -> None:
        self.workers = workers
        self.executor = executor
        self.site_memory = site_memory
        self.metadata = metadata
        self._memory = SiteMemory(site_memory) if site_memory > 0 else None
        # Processes get two calls each: one running, one queued, so that a worker does not
        # sit idle while its next page crosses the socket.
        in_flight = workers * 2 if self.uses_processes else workers
        self._semaphore = DeferredSemaphore(in_flight) if workers > 0 else None
        self._pool: ProcessPool | ProcessPoolExecutor | None = None
        self._pool_lock = threading.Lock()
        self._pickles: dict[int, tuple[Any, bytes]] = {}

    @property
    def options(self) -> tuple[int, str, int, bool]:
        """What the runner was made with: workers, executor, site memory, metadata."""
        return (self.workers, self.executor, self.site_memory, self.metadata)

    @property
    def uses_processes(self) -> bool:
        """Whether extractions go to worker processes (the "process" executor, 1+ workers)."""
        return self.executor == "process" and self.workers > 0

    def start(self) -> None:
        """Start the worker processes in the background, if the executor is "process"
        and the crawl runs on asyncio (call when the spider opens: the first pages then
        do not wait for the workers to start)."""
        if self.uses_processes and asyncio_available():
            pool = self._get_pool()
            if isinstance(pool, ProcessPool):
                pool.start()

    def prestart(self, settings: Any) -> None:
        """Start the worker processes now, before the crawl's event loop runs, if the
        executor is "process" and the crawl will run on asyncio (the add-on calls this
        when it configures the crawl: the workers are then ready when the first pages
        arrive)."""
        if not self.uses_processes or not asyncio_expected(settings):
            return
        pool = self._get_pool(on_asyncio=True)  # the reactor may not be installed yet
        if isinstance(pool, ProcessPool):
            pool.start_now()

    async def extract(
        self,
        extractor: Any,
        html: Any,
        url: str | None,
        timeout: float | None = None,
        formats: tuple[str, ...] = (),
        site_memory: bool = True,
    ) -> dict[str, Any]:
        """:func:`extract_to_dict` in a worker; worker processes get each extractor's
        pickle made once (and unpickle it once). ``site_memory=False``: this page neither
        reads nor teaches the crawl's memory of its site (a request's override).

        ``timeout`` (seconds, None: none) is the extraction's budget, checked by the engine
        between its steps; a worker process that holds a page past :func:`hard_limit` of
        it (a step that cannot be interrupted) is killed and the page's result says
        ``reason="timeout"``. A thread cannot be stopped: it ends at the engine's next
        check. ``formats``: the renderings to add (see ``Extractor.extract``)."""
        if not self.uses_processes:
            memory = self._memory if site_memory else None
            return await self.run(extract_to_dict, extractor, html, url, timeout, formats, memory)
        try:
            return await self.run(
                extract_pickled, self._pickle_of(extractor), html, url, timeout, formats,
                self.site_memory if site_memory else 0, limit=hard_limit(timeout),
            )  # fmt: skip
        except WorkerTimeout:
            return Extraction.empty(TIMEOUT, url, extractor.name).to_dict()

    def _pickle_of(self, extractor: Any) -> bytes:
        # keyed by identity; the entry holds the extractor, so the id is not reused while
        # it is cached (extractors are not changed once a crawl uses them)
        entry = self._pickles.get(id(extractor))
        if entry is None or entry[0] is not extractor:
            if len(self._pickles) >= 64:
                self._pickles.clear()
            entry = (extractor, pickle.dumps(extractor, pickle.HIGHEST_PROTOCOL))
            self._pickles[id(extractor)] = entry
        return entry[1]

    async def run(self, func: Callable[..., _T], *args: Any, limit: float | None = None) -> _T:
        """``func(*args)`` in a worker (``limit``: seconds a worker process may take)."""
        if self._semaphore is None:
            return func(*args)
        await maybe_deferred_to_future(self._semaphore.acquire())
        try:
            if self.uses_processes:
                return await self._run_in_process(func, args, limit)
            return await run_in_thread(func, *args)
        finally:
            self._semaphore.release()

    async def _run_in_process(
        self, func: Callable[..., _T], args: tuple, limit: float | None
    ) -> _T:
        pool = self._get_pool()
        if isinstance(pool, ProcessPool):  # replaces dead workers, tries their calls again
            return await pool.run(func, *args, limit=limit)
        # other reactors: the standard pool, awaited from a thread; no time limit (a worker
        # cannot be killed alone), a call whose worker died is tried once more
        for attempt in (1, 2):
            try:
                return await run_in_thread(_submit_and_wait, pool, func, args)
            except BrokenProcessPool as exc:
                self._drop_pool(pool)  # a worker died (killed, out of memory): start afresh
                if attempt == 2:
                    raise WorkerDied(f"a worker process ended during a call: {exc}") from exc
                pool = self._get_pool()
        raise AssertionError("unreachable")  # pragma: no cover

    def _get_pool(self, on_asyncio: bool | None = None) -> ProcessPool | ProcessPoolExecutor:
        with self._pool_lock:
            if self._pool is None:
                if asyncio_available() if on_asyncio is None else on_asyncio:
                    self._pool = ProcessPool(self.workers, warm_dates=self.metadata)
                else:
                    self._pool = ProcessPoolExecutor(
                        max_workers=self.workers,
                        mp_context=process_context(self.metadata),
                        initializer=prepare_worker,
                        initargs=(self.metadata,),
                    )
            return self._pool

    def _drop_pool(self, pool: ProcessPoolExecutor) -> None:
        with self._pool_lock:
            if self._pool is pool:
                self._pool = None
        pool.shutdown(wait=False, cancel_futures=True)

    def close(self) -> None:
        """Stop the worker processes, if any (at the end of the crawl)."""
        with self._pool_lock:
            pool, self._pool = self._pool, None
        if isinstance(pool, ProcessPool):
            pool.close()
        elif pool is not None:
            pool.shutdown(wait=True, cancel_futures=True)


_CRAWL_RUNNERS: weakref.WeakKeyDictionary[Any, ExtractionRunner] = weakref.WeakKeyDictionary()


def crawl_runner(
    crawler: Any, workers: int, executor: str, site_memory: int = 0, metadata: bool = False
) -> ExtractionRunner:
    """The crawl's :class:`ExtractionRunner`, shared by the add-on (which starts worker
    processes early), the downloader middleware and the pipeline: one set of workers
    and one memory of the sites per crawl. A runner of other ``workers``/``executor``/
    ``site_memory``/``metadata`` is closed and replaced."""
    runner = _CRAWL_RUNNERS.get(crawler)
    wanted = (workers, executor, site_memory, metadata)
    if runner is None or runner.options != wanted:
        if runner is not None:
            runner.close()
        runner = _CRAWL_RUNNERS[crawler] = ExtractionRunner(
            workers, executor, site_memory, metadata
        )
    return runner


def config_runner(crawler: Any, config: BoilerplateConfig) -> ExtractionRunner:
    """:func:`crawl_runner` for a crawl's settings, as :func:`.settings.load_config` read
    them."""
    return crawl_runner(
        crawler,
        config.workers,
        config.executor,
        config.site_memory,
        metadata="metadata" in config.formats,
    )
