"""Archive pages in, one result each out, in archive order: in this process, or in worker
processes (the project's :class:`~scrapy_boilerplate.parallel.process_pool.ProcessPool`,
driven by an event loop of its own in a helper thread).

Reading stays ahead of extraction by a bounded window, so memory is flat in the archive's
size however many pages it holds.
"""

from __future__ import annotations

import asyncio
import collections
import concurrent.futures
import pickle
import threading
import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from ..extraction import TIMEOUT, Extraction, Extractor
from ..parallel.worker import HttpBody, extract_pickled, extract_pickled_many, extract_to_dict
from ..site_memory import SiteMemory
from .records import ArchivedPage, Skipped

__all__ = ["BatchSummary", "extract_pages", "page_result"]

ERROR = "error"
#: pages sent to a worker in one call (fewer, larger messages: the parent process, which
#: reads the archive and writes the results, stays light), at most this many bytes
_CHUNK_PAGES = 8
_CHUNK_BYTES = 4 << 20
#: calls handed to each worker process at once: one running, one queued, so that none
#: waits while this process reads the archive and writes results
_QUEUED = 2
#: batches held at most (sent, or done and waiting for the batches before them)
_MAX_WINDOW = 32


@dataclass
class BatchSummary:
    """What a run did: results given, failed extractions among them, records skipped by
    reason; ``seconds`` from the first record read to the last result."""

    pages: int = 0
    errors: int = 0
    skipped: collections.Counter[str] = field(default_factory=collections.Counter)
    seconds: float = 0.0

    @property
    def pages_per_second(self) -> float:
        return self.pages / self.seconds if self.seconds > 0 else 0.0

    def to_dict(self) -> dict[str, Any]:
        """Plain data for JSON."""
        return {
            "pages": self.pages,
            "errors": self.errors,
            "skipped": dict(sorted(self.skipped.items())),
            "seconds": round(self.seconds, 3),
            "pages_per_second": round(self.pages_per_second, 2),
        }

    def line(self) -> str:
        """One line for a terminal: pages, rate, errors, skips by reason."""
        text = (
            f"{self.pages:,} pages in {self.seconds:.1f} s ({self.pages_per_second:,.1f} "
            f"pages/s), {self.errors:,} errors"
        )
        if self.skipped:
            reasons = ", ".join(f"{n:,} {reason}" for reason, n in sorted(self.skipped.items()))
            total = sum(self.skipped.values())
            text += f"; skipped {total:,} record{'' if total == 1 else 's'}: {reasons}"
        return text


def page_result(page: ArchivedPage, result: dict[str, Any]) -> dict[str, Any]:
    """An extraction result with its record's fields first (url, record_id, date,
    status, source) and the record's warnings added to the extraction's."""
    out = {
        "url": page.url,
        "record_id": page.record_id,
        "date": page.date,
        "status": page.status,
        "source": page.source,
    }
    out.update((k, v) for k, v in result.items() if k != "url")
    if page.warnings:
        out["warnings"] = list(page.warnings) + list(out.get("warnings") or [])
    return out


def extract_pages(
    items: Iterable[ArchivedPage | Skipped],
    extractor: Extractor,
    *,
    workers: int = 1,
    timeout: float | None = None,
    summary: BatchSummary | None = None,
    formats: tuple[str, ...] = (),
    site_memory: int = 0,
) -> Iterator[dict[str, Any]]:
    """One result dict (:func:`page_result`) per page of ``items``, in their order.

    Skips are counted in ``summary`` (by reason), never yielded. ``workers > 1`` runs the
    extractions in that many processes. ``timeout`` is each page's time budget; in
    processes, a worker holding a page far past it is killed and the page's result says
    ``reason="timeout"``. A result never fails to come: an extraction that raised, or
    whose worker died, gives ``reason="error"`` with the error named. ``formats``: the
    renderings each result carries besides the text (``"markdown"``, ``"html"``),
    ``"metadata"`` for the article's metadata and ``"comments"`` for its readers' comments
    (``extraction.OUTPUTS``). ``site_memory``: the sites whose template the extraction
    remembers from page to page (:class:`~scrapy_boilerplate.site_memory.SiteMemory`;
    in processes, one in each worker; 0: each page alone).
    """
    summary = summary if summary is not None else BatchSummary()
    start = time.perf_counter()
    run = _in_processes if workers > 1 else _inline
    try:
        pages = _counting(items, summary)
        for result in run(pages, extractor, workers, timeout, tuple(formats), site_memory):
            summary.pages += 1
            if result.get("reason") in (ERROR, TIMEOUT):
                summary.errors += 1
            yield result
    finally:
        summary.seconds = time.perf_counter() - start


def _counting(
    items: Iterable[ArchivedPage | Skipped], summary: BatchSummary
) -> Iterator[ArchivedPage]:
    for item in items:
        if isinstance(item, Skipped):
            summary.skipped[item.reason] += 1
        else:
            yield item


def _failed(page: ArchivedPage, extractor: Extractor, reason: str, exc: BaseException) -> dict:
    error = f"{type(exc).__name__}: {exc}"
    return page_result(page, Extraction.empty(reason, page.url, extractor.name, error).to_dict())


def _inline(
    pages: Iterator[ArchivedPage],
    extractor: Extractor,
    workers: int,
    timeout: float | None,
    formats: tuple[str, ...],
    site_memory: int,
) -> Iterator[dict[str, Any]]:
    memory = SiteMemory(site_memory) if site_memory else None
    for page in pages:
        try:
            body = HttpBody(page.body, page.content_type)
            result = extract_to_dict(extractor, body, page.url, timeout, formats, memory)
        except Exception as exc:  # noqa: BLE001 - one page's failure is its result
            yield _failed(page, extractor, ERROR, exc)
        else:
            yield page_result(page, result)


def _chunks(pages: Iterator[ArchivedPage]) -> Iterator[list[ArchivedPage]]:
    chunk: list[ArchivedPage] = []
    size = 0
    for page in pages:
        chunk.append(page)
        size += len(page.body)
        if len(chunk) >= _CHUNK_PAGES or size >= _CHUNK_BYTES:
            yield chunk
            chunk, size = [], 0
    if chunk:
        yield chunk


def _running(window: collections.deque[tuple[Any, concurrent.futures.Future[Any]]]) -> int:
    return sum(not future.done() for _, future in window)


def _in_processes(
    pages: Iterator[ArchivedPage],
    extractor: Extractor,
    workers: int,
    timeout: float | None,
    formats: tuple[str, ...],
    site_memory: int,
) -> Iterator[dict[str, Any]]:
    from ..parallel.process_pool import ProcessPool, WorkerTimeout, hard_limit

    # The pool lives on an event loop of its own, in a thread: this generator may be
    # consumed where a loop already runs (a notebook, a Twisted reactor on asyncio)
    loop = asyncio.new_event_loop()
    thread = threading.Thread(target=loop.run_forever, name="boilerplate-archive-pool")
    thread.daemon = True
    thread.start()
    # (reading metadata: dateparser's slow first call made once, in the fork server)
    pool = ProcessPool(workers, warm_dates="metadata" in formats)
    pickled = pickle.dumps(extractor)
    limit = hard_limit(timeout)
    window: collections.deque[tuple[list[ArchivedPage], concurrent.futures.Future[Any]]]
    window = collections.deque()

    def submit_chunk(chunk: list[ArchivedPage]) -> concurrent.futures.Future[Any]:
        bodies = [(HttpBody(p.body, p.content_type), p.url) for p in chunk]
        call = pool.run(
            extract_pickled_many,
            pickled,
            bodies,
            timeout,
            formats,
            site_memory,
            limit=limit * len(chunk) if limit else None,
        )
        return asyncio.run_coroutine_threadsafe(call, loop)

    def submit_one(page: ArchivedPage) -> concurrent.futures.Future[Any]:
        body = HttpBody(page.body, page.content_type)
        call = pool.run(
            extract_pickled, pickled, body, page.url, timeout, formats, site_memory, limit=limit
        )
        return asyncio.run_coroutine_threadsafe(call, loop)

    def one_result(page: ArchivedPage, future: concurrent.futures.Future[Any]) -> dict:
        try:
            return page_result(page, future.result())
        except WorkerTimeout as exc:
            return _failed(page, extractor, TIMEOUT, exc)
        except Exception as exc:  # noqa: BLE001 - a dead worker, an unpicklable reply
            return _failed(page, extractor, ERROR, exc)

    def finish(chunk: list[ArchivedPage], future: concurrent.futures.Future[Any]) -> list[dict]:
        try:
            results = future.result()
        except Exception:  # noqa: BLE001 - a page ended or stalled its worker: find which
            # each page again on its own, so that only the culprit fails
            return [one_result(page, f) for page, f in [(p, submit_one(p)) for p in chunk]]
        return [
            _failed(page, extractor, ERROR, result)
            if isinstance(result, Exception)
            else page_result(page, result)
            for page, result in zip(chunk, results, strict=True)
        ]

    async def close_pool() -> None:
        pool.close()

    chunks = _chunks(pages)
    more = True
    try:
        while True:
            # keep every worker fed, whatever the oldest batch is doing: results are
            # given in order, but a slow batch does not hold the others' workers idle
            while more and len(window) < _MAX_WINDOW and _running(window) < workers * _QUEUED:
                chunk = next(chunks, None)
                if chunk is None:
                    more = False
                    break
                window.append((chunk, submit_chunk(chunk)))
            if not window:
                return
            if window[0][1].done():
                yield from finish(*window.popleft())
            else:
                concurrent.futures.wait(
                    [f for _, f in window if not f.done()],
                    return_when=concurrent.futures.FIRST_COMPLETED,
                )
    finally:
        for _, future in window:
            future.cancel()
        asyncio.run_coroutine_threadsafe(close_pool(), loop).result()
        loop.call_soon_threadsafe(loop.stop)
        thread.join()
        loop.close()
