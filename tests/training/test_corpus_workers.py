"""The corpus builder's worker processes do not inherit the caller's threads' locks.

A process that builds a corpus may have threads of its own (onnxruntime's, OpenMP's, a
crawl's). A forked worker gets a copy of every lock those threads held at that moment,
held by no thread of its own: the first time it needs one, it waits forever. That is how
a corpus build once hung in a test process. The workers start from a clean process.
"""

import textwrap

from ..helpers import run_python

BUILD_WHILE_A_THREAD_HOLDS_A_LOCK = textwrap.dedent(
    """
    import threading

    from scrapy_boilerplate.training.dataset import map_pages
    from tests.training import locked_work

    taken, done = threading.Event(), threading.Event()

    def hold():
        with locked_work.LOCK:
            taken.set()
            done.wait()

    threading.Thread(target=hold, daemon=True).start()
    taken.wait()
    print(map_pages(locked_work.work, [(1,), (2,), (3,)], processes=2))
    done.set()
    """
)


def test_workers_start_clean_while_a_thread_of_the_caller_holds_a_lock():
    # forked, each worker would wait for LOCK forever; started clean, they find it free
    run = run_python(BUILD_WHILE_A_THREAD_HOLDS_A_LOCK, timeout=120)
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == "[(1,), (2,), (3,)]"


def test_the_experiments_fork_so_their_in_memory_patches_reach_the_workers():
    run = run_python(
        "import benchmarks; from scrapy_boilerplate.training import dataset;"
        " print(dataset.CORPUS_START_METHOD)",
        timeout=120,
    )
    assert run.stdout.strip() == "fork", run.stderr
