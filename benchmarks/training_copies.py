"""Altered copies of the training pages, added to ``boosted``'s training for one run.

Experiments that ask "does training on such copies help?" (``boosted_aged_markup``,
``boosted_short_posts``) give a function that makes a page's copy (or None); while
:func:`training_copies` is active, the boosted corpus holds each page followed by its
copy, under the page's id with a suffix, and ``benchmarks.grouped_cv`` puts a copy in its
page's site (so in its page's fold: a fold model never trains on a copy of a page it
scores). Only the original pages are scored.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from benchmarks import grouped_cv
from benchmarks.boosted_static import experiment_parser, measure, print_scores
from scrapy_boilerplate.training import boosted as training_module
from scrapy_boilerplate.training.dataset import site_groups

#: a corpus job: (set, page id, html, main text, with snippets, without snippets)
Job = tuple[Any, ...]
#: a page's copy as (html, main text), or None for no copy
MakeCopy = Callable[[str, str, str | None], "tuple[str, str | None] | None"]


def with_copies(jobs: Iterable[Job], make: MakeCopy, suffix: str) -> Iterator[Job]:
    """Each job, then its copy (``make(page_id, html, main_text)``: the copy's html and
    main text, None for none) under the id ``page_id + suffix``, with the same snippets."""
    for name, page_id, html, main_text, *rest in jobs:
        yield (name, page_id, html, main_text, *rest)
        copy = make(page_id, html, main_text)
        if copy is not None:
            yield (name, page_id + suffix, copy[0], copy[1], *rest)


def sites_with_copies(suffix: str) -> Callable[[Sequence[Any], Any], list[str]]:
    """:func:`site_groups`, a copy (id ending in ``suffix``) in its page's site."""

    def groups(dataset_dirs: Sequence[Any], corpus: Any) -> list[str]:
        ids = corpus.page_ids
        corpus.page_ids = [pid.removesuffix(suffix) for pid in ids]
        try:
            return site_groups(dataset_dirs, corpus)
        finally:
            corpus.page_ids = ids

    return groups


@contextmanager
def training_copies(make: MakeCopy, suffix: str) -> Iterator[None]:
    """For the run: the boosted corpus holds each page and its copy (:func:`with_copies`),
    and the folds keep a copy with its page; the package's own functions are back
    afterwards."""
    own_jobs, own_groups = training_module._jobs, grouped_cv.site_groups

    def jobs(*args: Any, **kwargs: Any) -> Iterator[Job]:
        return with_copies(own_jobs(*args, **kwargs), make, suffix)

    training_module._jobs = jobs  # type: ignore[assignment]
    grouped_cv.site_groups = sites_with_copies(suffix)  # type: ignore[assignment]
    try:
        yield
    finally:
        training_module._jobs = own_jobs  # type: ignore[assignment]
        grouped_cv.site_groups = own_groups  # type: ignore[assignment]


def copy_experiment(
    argv: list[str] | None, description: str, out: Path, make: MakeCopy, suffix: str, what: str
) -> int:
    """The main of a script that trains on copies made by ``make``: ``boosted`` measured
    as every choice (:func:`~benchmarks.boosted_static.measure`) with them in training."""
    args = experiment_parser(description, out).parse_args(argv)
    with training_copies(make, suffix):
        scores = measure(args, args.out)
    print_scores(f"boosted trained on the pages and their {what}", scores)
    return 0
