"""Benchmarks and the experiments behind the docs' figures (``python -m benchmarks.<name>``)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from scrapy_boilerplate.training import dataset as _dataset


@contextmanager
def forked_corpus_workers() -> Iterator[None]:
    """Around an experiment's corpus build: its worker processes are forked.

    The experiments patch the feature code in memory (columns, copies, stopwords) before
    the corpus is built, and the workers must see the patches, which a clean start
    (the package's "forkserver") would not. Only for the build: a process that imports
    ``benchmarks`` (the test process) keeps clean starts otherwise, as forking a process
    with threads of its own can hang a worker on a lock no thread of it holds."""
    before = _dataset.CORPUS_START_METHOD
    _dataset.CORPUS_START_METHOD = "fork"
    try:
        yield
    finally:
        _dataset.CORPUS_START_METHOD = before
