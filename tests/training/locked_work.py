"""A page job that needs a lock, for tests/training/test_corpus_workers.py."""

import threading

#: held by a thread of the test's process while the corpus workers start
LOCK = threading.Lock()


def work(job: tuple) -> tuple:
    """The job itself, once :data:`LOCK` is free in this process."""
    with LOCK:
        return job


#: set by a test in its own process, as an experiment patches the feature code in memory
PATCH = None


def patch_seen(job: tuple) -> tuple:
    """What this process sees of :data:`PATCH` (a forked worker sees its parent's)."""
    return (PATCH,)
