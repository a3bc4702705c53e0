"""The process pool behind ``BOILERPLATE_EXECUTOR = "process"``: worker processes that the
crawl's own event loop talks to over sockets, with no helper threads in the crawl."""

from __future__ import annotations

import asyncio
import multiprocessing
import operator
import os
import threading
import time
from concurrent.futures.process import BrokenProcessPool

import pytest
from scrapy.utils.defer import deferred_f_from_coro_f

from scrapy_boilerplate.parallel.process_pool import ProcessPool, WorkerDied, WorkerTimeout


def _context():
    methods = multiprocessing.get_all_start_methods()
    return multiprocessing.get_context("forkserver" if "forkserver" in methods else "spawn")


class NeedsTwoArguments(Exception):
    """Pickles, but cannot be unpickled (its __init__ wants two arguments)."""

    def __init__(self, a, b):
        super().__init__(f"{a}/{b}")


def raise_needs_two_arguments():
    raise NeedsTwoArguments(1, 2)


def slow_echo(value, seconds):
    time.sleep(seconds)
    return value


@deferred_f_from_coro_f
async def test_calls_run_in_other_processes_and_answers_reach_their_callers():
    pool = ProcessPool(2, _context())
    try:
        # more calls at once than workers, finishing out of order across workers
        calls = [pool.run(slow_echo, i, 0.02 * (i % 3)) for i in range(12)]
        assert await asyncio.gather(*calls) == list(range(12))
        pids = set(await asyncio.gather(*(pool.run(os.getpid) for _ in range(6))))
        assert os.getpid() not in pids
        assert set(pool.pids) >= pids and len(pool.pids) == 2
    finally:
        pool.close()


@deferred_f_from_coro_f
async def test_calls_need_no_helper_threads_in_the_crawl_process():
    before = threading.active_count()
    pool = ProcessPool(1, _context())
    try:
        await pool.start()  # starting uses one short-lived thread, ended when it is done
        for _ in range(50):
            if threading.active_count() == before:
                break
            await asyncio.sleep(0.01)
        assert threading.active_count() == before
        for i in range(5):
            assert await pool.run(operator.add, i, 1) == i + 1
        assert threading.active_count() == before
    finally:
        pool.close()


@deferred_f_from_coro_f
async def test_workers_start_without_blocking_the_event_loop():
    pool = ProcessPool(1, _context())
    ticks = 0

    async def tick():
        nonlocal ticks
        while True:
            ticks += 1
            await asyncio.sleep(0)

    ticker = asyncio.ensure_future(tick())
    try:
        starting = pool.start()
        assert not starting.done()
        await starting
        assert ticks > 1  # the loop went on while the worker started
        assert len(pool.pids) == 1
        assert pool.start() is not starting  # nothing missing: a new, empty start
        await pool.start()
        assert len(pool.pids) == 1
    finally:
        ticker.cancel()
        pool.close()


@deferred_f_from_coro_f
async def test_an_exception_in_a_worker_is_raised_to_its_caller_only():
    pool = ProcessPool(1, _context())
    try:
        failing = pool.run(operator.truediv, 1, 0)
        fine = pool.run(operator.add, 2, 3)
        with pytest.raises(ZeroDivisionError):
            await failing
        assert await fine == 5
        # what cannot cross back becomes a RuntimeError saying so; the worker lives on
        with pytest.raises(RuntimeError, match="unpicklable worker reply"):
            await pool.run(threading.Lock)
        with pytest.raises(RuntimeError, match="cannot unpickle a worker's reply"):
            await pool.run(raise_needs_two_arguments)
        assert await pool.run(operator.mul, 6, 7) == 42
    finally:
        pool.close()


@deferred_f_from_coro_f
async def test_a_dead_worker_is_replaced_and_its_calls_tried_once_more():
    pool = ProcessPool(1, _context())
    try:
        first = await pool.run(os.getpid)
        # the worker dies in its first call: the call queued behind it goes to a new
        # worker; the deadly one is tried once more, and dies again
        dying = asyncio.ensure_future(pool.run(os._exit, 3))
        queued = asyncio.ensure_future(pool.run(slow_echo, "answered", 0))
        results = await asyncio.gather(dying, queued, return_exceptions=True)
        assert type(results[0]) is WorkerDied and results[1] == "answered"
        assert isinstance(results[0], BrokenProcessPool)  # what the standard pool raises
        second = await pool.run(os.getpid)
        assert second != first
        assert pool.pids == [second]
    finally:
        pool.close()


def die_the_first_time(marker):
    # ends its worker unless the marker file exists (then it answers): the second try lives
    if not os.path.exists(marker):
        open(marker, "w").close()
        os._exit(9)
    return "second try"


@deferred_f_from_coro_f
async def test_a_call_whose_worker_died_is_tried_on_another(tmp_path):
    pool = ProcessPool(1, _context())
    try:
        assert await pool.run(die_the_first_time, str(tmp_path / "died")) == "second try"
    finally:
        pool.close()


@deferred_f_from_coro_f
async def test_a_call_past_its_limit_kills_its_worker_and_spares_the_queue():
    pool = ProcessPool(1, _context())
    try:
        first = await pool.run(os.getpid)
        stuck = asyncio.ensure_future(pool.run(time.sleep, 30, limit=0.3))
        queued = asyncio.ensure_future(pool.run(slow_echo, "answered", 0, limit=5))
        started = time.monotonic()
        results = await asyncio.gather(stuck, queued, return_exceptions=True)
        assert type(results[0]) is WorkerTimeout and results[1] == "answered"
        assert time.monotonic() - started < 10
        assert await pool.run(os.getpid) not in (first, None)
        # the limit counts from when the worker starts a call, not from when it was sent
        calls = [pool.run(slow_echo, i, 0.2, limit=0.5) for i in range(4)]
        assert await asyncio.gather(*calls) == [0, 1, 2, 3]
    finally:
        pool.close()


class ExitingAtStart:
    """A start method whose processes end at once with exit code 3, before they serve."""

    def __init__(self, context):
        self.context = context

    def Process(self, target, args, daemon):  # noqa: N802 - multiprocessing's name
        return self.context.Process(target=os._exit, args=(3,), daemon=daemon)


@deferred_f_from_coro_f
async def test_a_worker_that_ends_before_it_is_ready_fails_the_call_with_a_clear_error():
    pool = ProcessPool(1, ExitingAtStart(_context()))
    try:
        started = time.monotonic()
        with pytest.raises(WorkerDied, match=r"before it was ready \(exit code 3\)"):
            await pool.run(os.getpid)
        assert time.monotonic() - started < 30  # tried again a few times, not forever
        assert pool.pids == []
    finally:
        pool.close()


def collected_cycles(rounds):
    """Make ``rounds`` pairs of objects that only a collection frees; how many were
    freed so (run in a worker)."""
    import gc

    class Node:
        pass

    before = sum(generation["collected"] for generation in gc.get_stats())
    for _ in range(rounds):
        a, b = Node(), Node()
        a.other, b.other = b, a
        del a, b
    return sum(generation["collected"] for generation in gc.get_stats()) - before


@deferred_f_from_coro_f
async def test_a_worker_still_frees_the_cycles_its_pages_leave():
    # collected less often than Python's default, but collected: memory stays flat
    pool = ProcessPool(1, _context())
    try:
        assert await pool.run(collected_cycles, 20_000) >= 30_000
    finally:
        pool.close()


def test_a_warm_up_that_fails_does_not_end_the_worker(monkeypatch):
    # what a worker runs before it says it is ready: it must get there whatever happens
    from scrapy_boilerplate.parallel import process_pool

    monkeypatch.setattr(process_pool, "_WARM_DATES_MODULE", "scrapy_boilerplate.no_such_module")
    assert process_pool.warm_worker_dates() is None


@deferred_f_from_coro_f
async def test_workers_ignore_ctrl_c_which_the_crawl_handles():
    import signal

    pool = ProcessPool(1, _context())
    try:
        pid = await pool.run(os.getpid)
        os.kill(pid, signal.SIGINT)  # what Ctrl-C sends to the whole process group
        await asyncio.sleep(0.1)
        assert await pool.run(os.getpid) == pid
    finally:
        pool.close()


@deferred_f_from_coro_f
async def test_a_cancelled_call_does_not_shift_the_answers_of_later_ones():
    pool = ProcessPool(1, _context())
    try:
        slow = asyncio.ensure_future(pool.run(slow_echo, "slow", 0.2))
        await asyncio.sleep(0.05)
        slow.cancel()
        assert await pool.run(slow_echo, "next", 0) == "next"
    finally:
        pool.close()


@deferred_f_from_coro_f
async def test_close_ends_the_workers():
    pool = ProcessPool(2, _context())
    await asyncio.gather(pool.run(os.getpid), pool.run(os.getpid))
    processes = [w.process for w in pool._workers]
    pool.close()
    assert processes and all(p.exitcode is not None for p in processes)
    assert pool.pids == []


def test_a_pool_starts_its_workers_as_process_context_says_unless_given_a_context():
    from scrapy_boilerplate.parallel.process_pool import process_context

    default = ProcessPool(1).context
    assert default.get_start_method() == process_context().get_start_method()
    spawn = multiprocessing.get_context("spawn")
    assert ProcessPool(1, spawn, warm_dates=True).context is spawn


def test_a_pool_needs_a_worker():
    with pytest.raises(ValueError, match="at least one worker"):
        ProcessPool(0, _context())


@deferred_f_from_coro_f
async def test_workers_started_before_the_event_loop_are_adopted():
    """start_now() needs no event loop (a crawl calls it while Scrapy sets up): the first
    call uses the workers it started instead of starting others."""
    pool = ProcessPool(1, _context())
    try:
        caller = threading.Thread(target=pool.start_now)  # a thread with no event loop
        caller.start()
        caller.join()
        early = pool._early
        assert early is not None
        started = await asyncio.wrap_future(early)
        assert await pool.run(os.getpid) == started[0].process.pid
        assert pool.pids == [started[0].process.pid]
        pool.start_now()  # it has its workers: nothing more starts
        assert pool._early is None and pool.pids == [started[0].process.pid]
    finally:
        pool.close()


def test_workers_started_early_end_with_the_pool_even_if_never_used():
    pool = ProcessPool(1, _context())
    pool.start_now()
    started = pool._early.result(timeout=60)
    pool.close()
    for worker in started:
        worker.process.join(10)
        assert not worker.process.is_alive()
