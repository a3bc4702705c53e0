"""A page job that needs a lock, for tests/training/test_corpus_workers.py."""

import threading

#: held by a thread of the test's process while the corpus workers start
LOCK = threading.Lock()


def work(job: tuple) -> tuple:
    """The job itself, once :data:`LOCK` is free in this process."""
    with LOCK:
        return job
