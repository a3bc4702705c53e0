"""A pool of worker processes driven by the running asyncio event loop.

Each worker is connected to the crawl by a socket pair. The crawl writes a call (a pickled
function and its arguments, length-prefixed) and the event loop reads the answer when it
arrives: no helper threads in the crawl process. ``concurrent.futures.ProcessPoolExecutor``
runs a manager thread and a feeder thread per pool, which contend with the reactor for the
GIL (the profile is in docs/scrapy.md, "Threads, processes and speed").

Workers answer their calls in order, so each keeps a FIFO of the futures it owes. A worker
that dies (killed, out of memory) fails the calls it held with :class:`WorkerDied` and is
replaced on the next call; each of those calls is tried once more on another worker. A call
may have a time limit, counted from when its worker starts it: past it, the worker is
killed (a C loop cannot be interrupted otherwise), the call fails with
:class:`WorkerTimeout` and the calls queued behind it go to another worker. Imports no
Scrapy.
"""

from __future__ import annotations

import asyncio
import collections
import concurrent.futures
import gc
import importlib
import multiprocessing
import pickle
import signal
import socket
import struct
import threading
from collections.abc import Callable
from concurrent.futures.process import BrokenProcessPool
from typing import Any

__all__ = [
    "ProcessPool",
    "WorkerDied",
    "WorkerTimeout",
    "hard_limit",
    "process_context",
    "prepare_worker",
    "serve",
    "warm_worker_dates",
]

#: how often a call queued behind calls that ended their workers is sent again
_MAX_RESENDS = 5
#: what a worker sends once it is ready for calls, and how long it may take to get there
#: (dateparser's warm-up takes ~2 s; a worker that never gets there is killed)
_READY = b"R"
READY_TIMEOUT = 300.0
_HEADER = struct.Struct("!Q")  # the length of the pickle that follows
_PROTOCOL = pickle.HIGHEST_PROTOCOL
#: a worker's collector collects its youngest generation after this many allocations
#: (Python's default: 700). A page makes tens of thousands of short-lived objects (its
#: blocks, their lists and sets), nearly all freed by their counts, not by the collector
WORKER_GC_THRESHOLD = 5000


class WorkerDied(BrokenProcessPool):
    """A worker process ended while it held calls (a ``BrokenProcessPool``, as the
    standard pool raises). ``started``: whether the worker had started this call (it may
    have caused the end) or held it queued behind another."""

    def __init__(self, message: str, started: bool = True) -> None:
        super().__init__(message)
        self.started = started


class WorkerTimeout(TimeoutError):
    """A call ran past its time limit; its worker was killed."""


# -- the worker side ------------------------------------------------------------------------------
def _read_exactly(sock: socket.socket, size: int) -> bytes | None:
    view = memoryview(bytearray(size))
    got = 0
    while got < size:
        n = sock.recv_into(view[got:])
        if n == 0:
            return None
        got += n
    return view.obj  # type: ignore[return-value]


def _answer(call: bytes) -> bytes:
    try:
        func, args = pickle.loads(call)
        reply: tuple[bool, Any] = (True, func(*args))
    except Exception as exc:  # goes back to the caller (SystemExit & co. end the worker)
        reply = (False, exc)
    try:
        return pickle.dumps(reply, _PROTOCOL)
    except Exception as exc:  # an unpicklable result or exception
        return pickle.dumps((False, RuntimeError(f"unpicklable worker reply: {exc!r}")))


def serve(sock: socket.socket, warm_dates: bool = False) -> None:
    """Answer calls on ``sock`` until the crawl closes its end (a worker's main loop).

    First, with ``warm_dates``, make sure dateparser's slow first call is made (a no-op
    where the fork server made it), then say so with one byte: the crawl counts the
    worker as started only then, so that no page's time limit runs during the warm-up."""
    # Ctrl-C reaches the whole process group: the crawl decides when its workers stop (by
    # closing their sockets), so that a graceful shutdown still extracts its last pages
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    with sock:
        prepare_worker(warm_dates)
        sock.sendall(_READY)
        while True:
            header = _read_exactly(sock, _HEADER.size)
            if header is None:
                return
            call = _read_exactly(sock, _HEADER.unpack(header)[0])
            if call is None:
                return
            reply = _answer(call)
            try:
                sock.sendall(_HEADER.pack(len(reply)) + reply)
            except OSError:  # the crawl closed its end while we worked: nobody waits
                return


def prepare_worker(warm_dates: bool = False) -> None:
    """Ready this process to serve pages: with ``warm_dates`` dateparser warmed up
    (:func:`warm_worker_dates`), then the cyclic garbage collector set for a worker.

    What the process holds by then (the engine's modules and tables, inherited from the
    fork server) is frozen out of every later collection's scan (``gc.freeze``), and the
    youngest generation is collected every :data:`WORKER_GC_THRESHOLD` allocations. The
    collector still runs and frees the cycles a page leaves (a worker's memory stays
    flat); it no longer walks the engine's objects again and again. Measured on 400
    dragnet-test and l3s-gn1 pages, a worker's call 2.98 -> 2.82 ms of CPU (x0.95, the
    median of 5 rounds; no collector at all: 2.95, ``python -m
    benchmarks.worker_collector``). A worker process only: the crawl's own process and
    its collector are the user's."""
    if warm_dates:
        warm_worker_dates()
    gc.collect()
    gc.freeze()
    gc.set_threshold(WORKER_GC_THRESHOLD, *gc.get_threshold()[1:])


def warm_worker_dates() -> None:
    """Make dateparser's slow first call in this worker, before its first page, unless
    the fork server it came from made it (then its module is imported already, and this
    costs nothing). A fork server started by a pool that read no metadata did not make
    it, nor does a "spawn" worker inherit it. A warm-up that fails leaves the worker as
    it was (cold: its pages still read dates, within their budget)."""
    try:
        importlib.import_module(_WARM_DATES_MODULE)
    except Exception:  # noqa: BLE001 - a speed-up, never a reason for the worker to end
        pass


# -- the crawl side -------------------------------------------------------------------------------
def _settle(future: asyncio.Future[Any], reply: bytes) -> None:
    try:
        ok, value = pickle.loads(reply)
    except Exception as exc:  # e.g. an exception class whose __init__ wants other arguments
        ok, value = False, RuntimeError(f"cannot unpickle a worker's reply: {exc!r}")
    if ok:
        future.set_result(value)
    else:
        future.set_exception(value)


class _Worker(asyncio.Protocol):
    """One worker process and the crawl's end of its socket, as an asyncio protocol: the
    event loop hands it the bytes of replies as they arrive."""

    def __init__(
        self, context: multiprocessing.context.BaseContext, warm_dates: bool = False
    ) -> None:
        ours, theirs = socket.socketpair()
        self.process = context.Process(target=serve, args=(theirs, warm_dates), daemon=True)
        self.process.start()
        theirs.close()  # so that our end sees EOF when the worker ends
        self.socket = ours
        self.pending: collections.deque[asyncio.Future[Any]] = collections.deque()
        self.limits: collections.deque[float | None] = collections.deque()  # per pending call
        self._watchdog: asyncio.TimerHandle | None = None
        self.alive = True
        self._buffer = bytearray()
        self._transport: asyncio.Transport | None = None
        self._connecting: asyncio.Future[Any] | None = None

    def wait_until_ready(self) -> None:
        """Block until the worker says it is ready for calls (pools start workers in a
        thread of their own): a call's time limit counts from when it is sent, so none
        may be sent to a worker still warming up. Raises :class:`WorkerDied` if the
        worker ends or stalls first."""
        self.socket.settimeout(READY_TIMEOUT)
        ready: bytes | None
        try:
            ready = self.socket.recv(len(_READY))
        except OSError:  # stalled (socket.timeout) or broken
            ready = None
        if ready != _READY:
            self.alive = False
            if ready is not None:  # its end closed: it is ending, with its own exit code
                self.process.join(1.0)
            if self.process.is_alive():
                self.process.kill()
                self.process.join(1.0)
            self.socket.close()
            code = self.process.exitcode
            raise WorkerDied(
                "a worker process ended or stalled before it was ready"
                + (f" (exit code {code})" if code is not None else ""),
                started=False,
            )
        self.socket.settimeout(None)

    async def call(self, payload: bytes, limit: float | None = None) -> Any:
        """Send a call; ``limit``: seconds it may run once the worker starts it."""
        if self._transport is None:
            if self._connecting is None:  # once, however many calls wait for it
                loop = asyncio.get_running_loop()
                self._connecting = asyncio.ensure_future(
                    loop.create_connection(lambda: self, sock=self.socket)
                )
            await asyncio.shield(self._connecting)
        if not self.alive:
            raise WorkerDied(self._died_message())
        future = asyncio.get_running_loop().create_future()
        self.pending.append(future)
        self.limits.append(limit)
        if len(self.pending) == 1:  # the worker starts it now
            self._watch_head()
        assert self._transport is not None
        self._transport.writelines(
            (_HEADER.pack(len(payload)), payload)
        )  # 3.12+: sendmsg, no joined copy
        return await future

    # asyncio.Protocol
    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self._transport = transport  # type: ignore[assignment]

    def data_received(self, data: bytes) -> None:
        buffer = self._buffer
        buffer += data
        while len(buffer) >= _HEADER.size:
            end = _HEADER.size + _HEADER.unpack_from(buffer)[0]
            if len(buffer) < end:
                break
            reply = bytes(buffer[_HEADER.size : end])
            del buffer[:end]
            future = self.pending.popleft()
            self.limits.popleft()
            self._watch_head()  # the next call starts now
            if not future.done():  # else its caller was cancelled (or it timed out)
                _settle(future, reply)

    def _watch_head(self) -> None:
        # a timer on the call the worker is running, if it has a limit
        if self._watchdog is not None:
            self._watchdog.cancel()
            self._watchdog = None
        if self.pending and self.limits[0] is not None:
            loop = asyncio.get_running_loop()
            self._watchdog = loop.call_later(self.limits[0], self._overdue, self.pending[0])

    def _overdue(self, future: asyncio.Future[Any]) -> None:
        self._watchdog = None
        if not self.pending or self.pending[0] is not future or not self.alive:
            return
        if not future.done():
            future.set_exception(WorkerTimeout("the call ran past its time limit"))
        self.alive = False  # no new calls; the queued ones fail with WorkerDied
        self.process.kill()
        self.process.join(1.0)  # reaped: SIGKILL ends it at once

    def connection_lost(self, exc: Exception | None) -> None:
        self.alive = False
        if self._watchdog is not None:
            self._watchdog.cancel()
            self._watchdog = None
        self.limits.clear()
        started = True  # the first pending call is the one the worker was running
        while self.pending:
            future = self.pending.popleft()
            if not future.done():
                future.set_exception(WorkerDied(self._died_message(), started))
            started = False

    def _died_message(self) -> str:
        code = self.process.exitcode  # None if not reaped yet
        return "a worker process ended during a call" + (
            f" (exit code {code})" if code is not None else ""
        )

    def close(self, timeout: float) -> None:
        self.alive = False
        if self._transport is not None:
            self._transport.close()
        self.socket.close()
        self.process.join(timeout)
        if self.process.is_alive():
            self.process.terminate()
            self.process.join(timeout)


class ProcessPool:
    """``workers`` processes from ``context`` (by default :func:`process_context`'s for
    ``warm_dates``), started on the first call (or by :meth:`start`).

    Starting a process blocks until it runs and says it is ready (the first one waits
    for the fork server to import the engine), so it happens in a short-lived thread
    while the event loop goes on. Calls go to the worker with the fewest unanswered
    calls. Must be used from one event loop (the crawl's); arguments, results and
    exceptions must pickle.

    ``warm_dates`` (metadata is read): each worker makes sure dateparser's slow first
    call is made before it takes calls. Where the fork server made it
    (:func:`process_context`), that costs nothing; where it did not (a fork server that
    an earlier pool of the process started, or "spawn"), the worker makes it itself.
    """

    def __init__(
        self,
        workers: int,
        context: multiprocessing.context.BaseContext | None = None,
        warm_dates: bool = False,
    ) -> None:
        if workers < 1:
            raise ValueError("a process pool needs at least one worker")
        self.size = workers
        self.context = process_context(warm_dates) if context is None else context
        self.warm_dates = warm_dates
        self._workers: list[_Worker] = []
        self._starting: asyncio.Future[None] | None = None
        self._early: concurrent.futures.Future[list[_Worker]] | None = None
        self._closed = False

    def start_now(self) -> None:
        """Start the workers at once, in a background thread, with no event loop needed:
        for a crawl that is still being set up (a worker takes about as long to be ready as
        Scrapy takes to set up a crawl). The first :meth:`start` or :meth:`run` adopts
        them."""
        starting = self._starting is not None and not self._starting.done()
        if self._early is not None or self._workers or self._closed or starting:
            return
        self._early = self._start_in_thread(self.size)

    def _start_in_thread(self, count: int) -> concurrent.futures.Future[list[_Worker]]:
        # starting a process blocks until it runs: a short-lived thread of its own does it
        started: concurrent.futures.Future[list[_Worker]] = concurrent.futures.Future()

        def start_them() -> None:
            if not started.set_running_or_notify_cancel():  # nobody waits any more
                return
            try:
                started.set_result(_started_workers(self.context, count, self.warm_dates))
            except BaseException as exc:  # noqa: BLE001 - handed to whoever awaits them
                started.set_exception(exc)

        threading.Thread(target=start_them, name="boilerplate-pool-start", daemon=True).start()
        return started

    def start(self) -> asyncio.Future[None]:
        """Start the missing workers in the background; the future is done when they run."""
        if self._starting is None or self._starting.done():
            self._starting = asyncio.ensure_future(self._start_missing())
        return self._starting

    async def run(self, func: Callable[..., Any], *args: Any, limit: float | None = None) -> Any:
        """Call ``func(*args)`` in a worker and return (or raise) what it did.

        ``limit``: the seconds the call may run in its worker (:class:`WorkerTimeout` past
        it). A call whose worker died while running it is tried once more, on another
        worker; one that waited behind the call that ended it is sent again (a few times
        at most) without losing its try."""
        payload = pickle.dumps((func, args), _PROTOCOL)
        tries = resends = 0
        while True:
            try:
                return await self._call(payload, limit)
            except WorkerDied as exc:
                if exc.started:
                    tries += 1
                else:
                    resends += 1
                if tries > 1 or resends > _MAX_RESENDS:
                    raise

    async def _call(self, payload: bytes, limit: float | None) -> Any:
        self._workers = [w for w in self._workers if w.alive]
        if len(self._workers) < self.size:
            await asyncio.shield(self.start())
        if not self._workers:
            raise WorkerDied("no worker process is running")
        return await min(self._workers, key=lambda w: len(w.pending)).call(payload, limit)

    async def _start_missing(self) -> None:
        early, self._early = self._early, None
        if early is not None:  # adopt the workers start_now() started
            try:
                await self._adopt(early)
            except Exception:  # noqa: BLE001 - started again below, which raises what fails
                pass
        missing = self.size - sum(w.alive for w in self._workers)
        if missing <= 0 or self._closed:
            return
        await self._adopt(self._start_in_thread(missing))

    async def _adopt(self, starting: concurrent.futures.Future[list[_Worker]]) -> None:
        new = await asyncio.wrap_future(starting)
        if self._closed:  # closed while they started
            for worker in new:
                worker.close(timeout=10.0)
            return
        self._workers = [w for w in self._workers if w.alive] + new

    @property
    def pids(self) -> list[int]:
        """The live workers' process ids."""
        return [w.process.pid for w in self._workers if w.alive and w.process.pid]

    def close(self, timeout: float = 10.0) -> None:
        """End the workers: close their sockets, wait up to ``timeout`` s each, then
        terminate what is left."""
        self._closed = True
        workers, self._workers = self._workers, []
        for worker in workers:
            worker.close(timeout)
        early, self._early = self._early, None
        if early is not None:  # started early and never adopted: end them once they run
            early.add_done_callback(lambda done: _close_started(done, timeout))


def _started_workers(
    context: multiprocessing.context.BaseContext, count: int, warm_dates: bool
) -> list[_Worker]:
    # all started first, then awaited: workers that warm up themselves do it side by side
    workers = [_Worker(context, warm_dates) for _ in range(count)]
    try:
        for worker in workers:
            worker.wait_until_ready()
    except BaseException:
        for worker in workers:
            worker.close(timeout=1.0)
        raise
    return workers


def _close_started(done: concurrent.futures.Future[list[_Worker]], timeout: float) -> None:
    if not done.cancelled() and done.exception() is None:
        for worker in done.result():
            worker.close(timeout)


# -- starting workers -----------------------------------------------------------------------------
def hard_limit(timeout: float | None) -> float | None:
    """How long a worker process may hold a page whose budget is ``timeout`` before it is
    killed: half as long again and a second more, so that the engine's own checks end
    nearly every slow page first (killing a worker costs a new one)."""
    return None if not timeout else timeout * 1.5 + 1.0


_WORKER_MODULE = "scrapy_boilerplate.parallel.worker"
_WARM_DATES_MODULE = "scrapy_boilerplate.parallel.warm_dates"


def process_context(warm_dates: bool = False) -> multiprocessing.context.BaseContext:
    """The start method for worker processes, set up to import the engine once; with
    ``warm_dates`` (metadata is read), to make dateparser's slow first call once too
    (:mod:`~scrapy_boilerplate.parallel.warm_dates`). The fork server is one per process:
    what the first context that starts it asks for holds for every later pool (a pool
    with ``warm_dates`` whose fork server did not warm up has its workers do it:
    :class:`ProcessPool`)."""
    # A forkserver imports the engine (numpy, lxml, the models' code) once and forks every
    # worker from there; "spawn" would import it again in each worker.
    # Neither forks the caller (a crawl), whose threads make fork() unsafe.
    if "forkserver" in multiprocessing.get_all_start_methods():
        context = multiprocessing.get_context("forkserver")
        preload = [_WORKER_MODULE, _WARM_DATES_MODULE] if warm_dates else [_WORKER_MODULE]
        context.set_forkserver_preload(preload)
        return context
    return multiprocessing.get_context("spawn")
