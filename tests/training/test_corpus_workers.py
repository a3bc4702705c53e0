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


def test_the_experiments_fork_only_for_their_corpus_builds():
    """So that their in-memory patches of the feature code reach the workers; a process
    that only imports ``benchmarks`` (this one) keeps clean starts."""
    from benchmarks import forked_corpus_workers
    from scrapy_boilerplate.training import dataset

    assert dataset.CORPUS_START_METHOD == "forkserver"
    with forked_corpus_workers():
        assert dataset.CORPUS_START_METHOD == "fork"
    assert dataset.CORPUS_START_METHOD == "forkserver"
    try:
        with forked_corpus_workers():
            raise KeyboardInterrupt  # a build stopped half-way
    except KeyboardInterrupt:
        pass
    assert dataset.CORPUS_START_METHOD == "forkserver"


def test_the_fork_reaches_the_corpus_workers():
    run = run_python(
        textwrap.dedent(
            """
            from benchmarks import forked_corpus_workers
            from scrapy_boilerplate.training.dataset import map_pages
            from tests.training import locked_work

            locked_work.PATCH = "patched"  # as an experiment patches the feature code
            with forked_corpus_workers():
                print(map_pages(locked_work.patch_seen, [(1,), (2,)], processes=2))
            print(map_pages(locked_work.patch_seen, [(1,), (2,)], processes=2))
            """
        ),
        timeout=120,
    )
    assert run.stdout.split("\n")[:2] == ["[('patched',), ('patched',)]", "[(None,), (None,)]"], (
        run.stderr
    )
