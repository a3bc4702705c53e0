#!/usr/bin/env python
"""Does training on copies of the pages in older markup help the default labeler?

    python -m benchmarks.boosted_aged_markup [--unseen]

The sets that may train the shipped model are modern pages (WCXB 2025-26, Readability's
and trafilatura's test pages); the six sets it never trains on are news pages of 2005-2017,
written before HTML5's sectioning elements. The trees read those elements (a block inside
``<article>``, ``<nav>``, ``<footer>``, ...); on a modern page, being outside the
``<article>`` says boilerplate, on an old page nothing is inside one. This experiment
adds to the training data a copy of every page with its HTML5 sectioning and figure
elements renamed to ``div`` (``time`` and ``mark`` to ``span``): the same text, the same
labels, only the markup of a page of 2008. Measured as every ``boosted`` choice was
(``benchmarks.grouped_cv``'s folds, a page's copy in its page's fold; only the original
pages are scored), and with ``--unseen`` a model trained on all of them scored on the six
unseen sets. An experiment: the package trains on the pages as they are. Writes
``benchmarks/out/boosted_aged_markup/``. Needs the ``[train]`` extra.
"""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from benchmarks import grouped_cv
from benchmarks.boosted_static import measure, print_scores
from benchmarks.grouped_cv import DATA, ROOT
from scrapy_boilerplate.training import boosted as training_module
from scrapy_boilerplate.training.dataset import site_groups

OUT = ROOT / "benchmarks" / "out" / "boosted_aged_markup"
#: the suffix of a copy's page id
AGED = "#aged"

_BLOCK_TAGS = "article|section|nav|aside|header|footer|main|figure|figcaption|hgroup"
_BLOCK_RE = re.compile(rf"<(/?)(?:{_BLOCK_TAGS})(?=[\s/>])", re.IGNORECASE)
_INLINE_RE = re.compile(r"<(/?)(?:time|mark)(?=[\s/>])", re.IGNORECASE)


def aged(html: str) -> str:
    """``html`` with HTML5's sectioning and figure elements as ``div`` and ``time`` /
    ``mark`` as ``span`` (one regex pass each: linear in the page)."""
    return _INLINE_RE.sub(r"<\1span", _BLOCK_RE.sub(r"<\1div", html))


def with_aged_copies(jobs: Iterable[tuple[Any, ...]]) -> Iterator[tuple[Any, ...]]:
    """Each corpus job (set, page id, html, main text, snippets...), then its aged copy
    (when the markup changes)."""
    for name, page_id, html, *rest in jobs:
        yield (name, page_id, html, *rest)
        old = aged(html)
        if old != html:
            yield (name, page_id + AGED, old, *rest)


def copies_in_their_pages_sites(dataset_dirs: Sequence[Any], corpus: Any) -> list[str]:
    """:func:`site_groups`, a copy in its page's site (so in its page's fold)."""
    ids = corpus.page_ids
    corpus.page_ids = [pid.removesuffix(AGED) for pid in ids]
    try:
        return site_groups(dataset_dirs, corpus)
    finally:
        corpus.page_ids = ids


@contextmanager
def aged_copies() -> Iterator[None]:
    """For the run: the boosted corpus holds each page and its aged copy."""
    own_jobs, own_groups = training_module._jobs, grouped_cv.site_groups

    def jobs(*args: Any, **kwargs: Any) -> Iterator[tuple[Any, ...]]:
        return with_aged_copies(own_jobs(*args, **kwargs))

    training_module._jobs = jobs  # type: ignore[assignment]
    grouped_cv.site_groups = copies_in_their_pages_sites  # type: ignore[assignment]
    try:
        yield
    finally:
        training_module._jobs = own_jobs  # type: ignore[assignment]
        grouped_cv.site_groups = own_groups  # type: ignore[assignment]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", type=Path, default=DATA)
    parser.add_argument("--out", type=Path, default=OUT)
    parser.add_argument("--unseen", action="store_true", help="also score the six unseen sets")
    parser.add_argument("--folds", type=int, default=4)
    parser.add_argument("--threads", type=int, default=2)
    args = parser.parse_args(argv)
    with aged_copies():
        scores = measure(args, args.out)
    print_scores("boosted trained on the pages and their aged copies", scores)
    return 0


if __name__ == "__main__":
    sys.exit(main())
