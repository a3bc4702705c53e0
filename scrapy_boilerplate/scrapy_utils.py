"""What the Scrapy components share: running extractions off the reactor, results as small
dicts, filling item fields, stats and once-per-kind logging, and helpers for older Scrapy.

Only the Scrapy layer (``addon``, ``middlewares``, ``pipelines``, ``commands``) imports
this module; the engine never does.
"""

from __future__ import annotations

import logging
import multiprocessing
import pickle
import threading
import weakref
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, TypeVar

from itemadapter import ItemAdapter
from scrapy.utils.defer import maybe_deferred_to_future
from twisted.internet.defer import DeferredSemaphore

from ._worker import extract_pickled, extract_to_dict
from .process_pool import ProcessPool
from .settings import BoilerplateConfig

try:  # Scrapy 2.15+: asyncio.to_thread or deferToThread, whichever the crawl can await
    from scrapy.utils.asyncio import run_in_thread as _scrapy_run_in_thread
except ImportError:  # pragma: no cover - older Scrapy
    _scrapy_run_in_thread = None

__all__ = [
    "ExtractionRunner",
    "ItemFiller",
    "OnceLogger",
    "SKIP_REASONS",
    "count_result",
    "crawl_runner",
    "error_result",
    "extract_to_dict",
    "run_in_thread",
    "setdefault_in_component_priority_dict",
    "skipped_result",
]

_T = TypeVar("_T")

#: reasons for not extracting a response (``boilerplate/skipped/{reason}``)
SKIP_REASONS = ("disabled", "non_html", "status", "too_large")

#: the keys of Extraction.to_dict(), i.e. what ``BOILERPLATE_OUTPUT_FORMAT = "json"`` gives
EXTRACTION_KEYS = ("url", "title", "text", "extractor", "reason", "warnings", "timings")


async def run_in_thread(func: Callable[..., _T], *args: Any) -> _T:
    """Call ``func(*args)`` in a thread and await its result, on any Scrapy we support."""
    if _scrapy_run_in_thread is not None:
        return await _scrapy_run_in_thread(func, *args)
    from twisted.internet.threads import deferToThread  # pragma: no cover - Scrapy < 2.15

    return await maybe_deferred_to_future(deferToThread(func, *args))  # pragma: no cover


def _asyncio_available() -> bool:
    try:
        from scrapy.utils.asyncio import is_asyncio_available  # Scrapy 2.14+

        return is_asyncio_available()
    except ImportError:  # pragma: no cover - older Scrapy
        from scrapy.utils.reactor import is_asyncio_reactor_installed

        return is_asyncio_reactor_installed()


_ASYNCIO_REACTOR = "twisted.internet.asyncioreactor.AsyncioSelectorReactor"


def _asyncio_expected(settings: Any) -> bool:
    """Whether the crawl runs on asyncio, also when asked before its reactor is installed
    (then by the reactor its settings name, or Scrapy's reactor-less mode)."""
    try:
        return _asyncio_available()
    except RuntimeError:  # no reactor or loop yet
        return settings.get("TWISTED_REACTOR") == _ASYNCIO_REACTOR or not settings.getbool(
            "TWISTED_ENABLED", True
        )


_WORKER_MODULE = "scrapy_boilerplate._worker"


def _process_context() -> multiprocessing.context.BaseContext:
    # A forkserver imports the engine (numpy, lxml, the models' code: ~0.4 s of CPU) once
    # and forks every worker from there; "spawn" would import it again in each worker.
    # Neither forks the crawl itself, whose threads make fork() unsafe.
    if "forkserver" in multiprocessing.get_all_start_methods():
        context = multiprocessing.get_context("forkserver")
        context.set_forkserver_preload([_WORKER_MODULE])
        return context
    return multiprocessing.get_context("spawn")


class ExtractionRunner:
    """Runs extraction calls in worker threads (or processes), at most ``workers`` at once
    (processes: ``2 * workers`` handed over, one running and one queued per worker).

    ``workers=0`` runs them inline, on the reactor thread. The bound is a Twisted
    ``DeferredSemaphore`` (awaited through ``maybe_deferred_to_future``), which works with
    the asyncio reactor, other reactors and Scrapy's reactor-less mode alike.

    With ``executor="process"`` the calls go to ``workers`` processes (started lazily;
    arguments and results must pickle), which fork from a "forkserver" that has imported
    the engine once (where the platform has one; else "spawn", each worker importing it
    anew). Under asyncio they are a :class:`~scrapy_boilerplate.process_pool.ProcessPool`,
    whose sockets the event loop reads itself; under other reactors a
    ``ProcessPoolExecutor``, awaited from a thread.
    """

    def __init__(self, workers: int, executor: str = "thread") -> None:
        self.workers = workers
        self.executor = executor
        # Processes get two calls each: one running, one queued, so that a worker does not
        # sit idle while its next page crosses the socket.
        in_flight = workers * 2 if self.uses_processes else workers
        self._semaphore = DeferredSemaphore(in_flight) if workers > 0 else None
        self._pool: ProcessPool | ProcessPoolExecutor | None = None
        self._pool_lock = threading.Lock()
        self._pickles: dict[int, tuple[Any, bytes]] = {}

    @property
    def uses_processes(self) -> bool:
        """Whether extractions go to worker processes (the "process" executor, 1+ workers)."""
        return self.executor == "process" and self.workers > 0

    def start(self) -> None:
        """Start the worker processes in the background, if the executor is "process"
        and the crawl runs on asyncio (call when the spider opens: the first pages then
        do not wait for the workers to start)."""
        if self.uses_processes and _asyncio_available():
            pool = self._get_pool()
            if isinstance(pool, ProcessPool):
                pool.start()

    def prestart(self, settings: Any) -> None:
        """Start the worker processes now, before the crawl's event loop runs, if the
        executor is "process" and the crawl will run on asyncio (the add-on calls this
        when it configures the crawl: the workers are then ready when the first pages
        arrive)."""
        if not self.uses_processes or not _asyncio_expected(settings):
            return
        pool = self._get_pool(on_asyncio=True)  # the reactor may not be installed yet
        if isinstance(pool, ProcessPool):
            pool.start_now()

    async def extract(
        self, extractor: Any, html: Any, url: str | None, output_format: str = "text"
    ) -> dict[str, Any]:
        """:func:`extract_to_dict` in a worker; worker processes get each extractor's
        pickle made once (and unpickle it once)."""
        if self.uses_processes:
            return await self.run(
                extract_pickled, self._pickle_of(extractor), html, url, output_format
            )
        return await self.run(extract_to_dict, extractor, html, url, output_format)

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

    async def run(self, func: Callable[..., _T], *args: Any) -> _T:
        if self._semaphore is None:
            return func(*args)
        await maybe_deferred_to_future(self._semaphore.acquire())
        try:
            if self.uses_processes:
                return await self._run_in_process(func, *args)
            return await run_in_thread(func, *args)
        finally:
            self._semaphore.release()

    async def _run_in_process(self, func: Callable[..., _T], *args: Any) -> _T:
        pool = self._get_pool()
        if isinstance(pool, ProcessPool):  # replaces dead workers itself
            return await pool.run(func, *args)
        try:
            return await run_in_thread(lambda: pool.submit(func, *args).result())
        except BrokenProcessPool:
            self._drop_pool(pool)  # a worker died (killed, out of memory): start afresh
            raise

    def _get_pool(self, on_asyncio: bool | None = None) -> ProcessPool | ProcessPoolExecutor:
        with self._pool_lock:
            if self._pool is None:
                if _asyncio_available() if on_asyncio is None else on_asyncio:
                    self._pool = ProcessPool(self.workers, _process_context())
                else:
                    self._pool = ProcessPoolExecutor(
                        max_workers=self.workers, mp_context=_process_context()
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


def crawl_runner(crawler: Any, workers: int, executor: str) -> ExtractionRunner:
    """The crawl's :class:`ExtractionRunner`, shared by the add-on (which starts worker
    processes early), the downloader middleware and the pipeline: one set of workers
    per crawl. A runner of other ``workers``/``executor`` is closed and replaced."""
    runner = _CRAWL_RUNNERS.get(crawler)
    if runner is None or (runner.workers, runner.executor) != (workers, executor):
        if runner is not None:
            runner.close()
        runner = _CRAWL_RUNNERS[crawler] = ExtractionRunner(workers, executor)
    return runner


def skipped_result(reason: str, url: str | None) -> dict[str, Any]:
    """The result of a response that was not extracted (``reason`` in SKIP_REASONS)."""
    return {
        "url": url,
        "title": None,
        "text": "",
        "extractor": None,
        "reason": reason,
        "warnings": [],
        "timings": {},
        "ms": 0.0,
        "skipped": True,
    }


def error_result(exc: BaseException, url: str | None, extractor: str | None) -> dict[str, Any]:
    """The result of a page whose extraction raised: empty, with the exception named."""
    return {
        "url": url,
        "title": None,
        "text": "",
        "extractor": extractor,
        "reason": "error",
        "warnings": [],
        "timings": {},
        "ms": 0.0,
        "skipped": False,
        "error": f"{type(exc).__name__}: {exc}"[:300],
    }


def is_result(value: Any) -> bool:
    """True if ``value`` is a result dict this package wrote (not a dict of overrides)."""
    return isinstance(value, dict) and "text" in value and "skipped" in value


class OnceLogger:
    """Logs a message once per kind per crawl; later ones of the same kind are only counted."""

    def __init__(self, logger: logging.Logger, crawler: Any) -> None:
        self.logger = logger
        self.crawler = crawler
        self._seen: set[Any] = set()

    def __call__(self, kind: Any, level: int, msg: str, *args: Any, exc_info: Any = None) -> bool:
        if kind in self._seen:
            return False
        self._seen.add(kind)
        self.logger.log(
            level,
            msg,
            *args,
            exc_info=exc_info,
            extra={"spider": getattr(self.crawler, "spider", None)},
            stacklevel=2,
        )
        return True


def count_result(stats: Any, result: dict[str, Any]) -> None:
    """Count an extraction result (not a skip) in the ``boilerplate/...`` stats."""
    if result.get("reason") == "error":
        error = str(result.get("error", "Exception")).split(":", 1)[0]
        stats.inc_value("boilerplate/error_count")
        stats.inc_value(f"boilerplate/error_count/{error}")
    elif result.get("text"):
        stats.inc_value("boilerplate/extracted_count")
        stats.inc_value("boilerplate/text_chars", len(result["text"]))
    else:
        stats.inc_value("boilerplate/empty_count")
        stats.inc_value(f"boilerplate/empty/{result.get('reason') or 'no_content'}")
    ms = result.get("ms")
    if ms:
        stats.max_value("boilerplate/max_ms", ms)


def item_values(result: dict[str, Any], config: BoilerplateConfig) -> dict[str, Any]:
    """The item fields a result gives.

    Text format: the text field only when main text was found (so that the field's
    coverage, e.g. in Spidermon, measures extraction success), the title field when the
    page has a title. JSON format: the text field always gets the ``Extraction.to_dict()``
    view, which says why it is empty when it is.
    """
    values: dict[str, Any] = {}
    if config.output_format == "json":
        values[config.text_field] = {key: result.get(key) for key in EXTRACTION_KEYS}
    elif result.get("text"):
        values[config.text_field] = result["text"]
    if config.title_field and result.get("title"):
        values[config.title_field] = result["title"]
    return values


class ItemFiller:
    """Puts extraction fields on items of any kind itemadapter supports.

    A field the item class does not declare is counted (``boilerplate/item_field_missing``)
    and warned about once per class and field, never raised; a non-empty value already on
    the item is kept unless ``overwrite``.
    """

    def __init__(self, crawler: Any, overwrite: bool, logger: logging.Logger) -> None:
        self.crawler = crawler
        self.overwrite = overwrite
        self.once = OnceLogger(logger, crawler)

    def fill(self, item: Any, values: dict[str, Any]) -> bool:
        """Set ``values`` on ``item``; True if at least one field was set."""
        if not values:
            return False
        stats = self.crawler.stats
        adapter = ItemAdapter(item)
        filled = False
        missing: list[str] = []
        cls = type(item)
        for field, value in values.items():
            try:
                existing = adapter.get(field)
            except Exception:  # an adapter that cannot even read: treat as unset
                existing = None
            if existing and not self.overwrite:
                stats.inc_value("boilerplate/item_field_kept")
                continue
            try:
                adapter[field] = value
            except KeyError:
                missing.append(field)
                stats.inc_value("boilerplate/item_field_missing")
            except Exception as exc:  # frozen dataclass, validating model, ...
                stats.inc_value("boilerplate/error_count")
                stats.inc_value(f"boilerplate/error_count/{type(exc).__name__}")
                self.once(
                    ("set_error", cls, field, type(exc)),
                    logging.WARNING,
                    "Cannot set %r on %s items: %s: %s (warned once per class)",
                    field,
                    _class_name(cls),
                    type(exc).__name__,
                    exc,
                )
            else:
                filled = True
        if missing:
            self.once(
                ("missing", cls),
                logging.WARNING,
                "%s items have no field %s, so the extracted value was not stored. Declare "
                "the field, or point BOILERPLATE_TEXT_FIELD / BOILERPLATE_TITLE_FIELD (or "
                "BOILERPLATE_ITEM_PRESET) at fields the item has. (Warned once per class; "
                "counted in boilerplate/item_field_missing.)",
                _class_name(cls),
                " nor ".join(repr(f) for f in missing),
            )
        if filled:
            stats.inc_value("boilerplate/item_filled_count")
        return filled


def _class_name(cls: type) -> str:
    return f"{cls.__module__}.{cls.__qualname__}"


def setdefault_in_component_priority_dict(
    settings: Any, name: str, cls: type, priority: int
) -> None:
    """Add ``cls`` to the component dict setting ``name`` unless it is there already
    (as a class or an import path). Scrapy 2.13+ has this as a Settings method."""
    method = getattr(settings, "setdefault_in_component_priority_dict", None)
    if method is not None:
        method(name, cls, priority)
        return
    from scrapy.utils.misc import load_object  # pragma: no cover - Scrapy < 2.13

    components = settings.getdict(name)  # pragma: no cover
    for key in components:  # pragma: no cover
        try:
            if key is cls or load_object(key) is cls:
                return
        except (ImportError, NameError, ValueError, AttributeError):
            continue
    components[cls] = priority  # pragma: no cover
    settings.set(name, components, settings.getpriority(name) or 0)  # pragma: no cover
