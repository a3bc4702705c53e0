#!/usr/bin/env python
"""Does self-training on the snippet set's unlabelled blocks help the default labeler?

    python -m benchmarks.boosted_self_training --high 0.9 --low 0.1 --weight 0.5 \\
        [--unseen] [--seed N]
    python -m benchmarks.boosted_self_training --anchored --floor 0.2 --weight 0.5

trafilatura-eval is the most varied of the four training sets (985 pages of hundreds of
sites in a dozen languages, news most of them), but its references are must / must-not
snippets: 3,453 of its 53,441 blocks the trees decide get a label, the other 49,988 train
nothing. Here the trees are fitted twice: once as shipped, then again with those
unlabelled blocks labelled by the first fit where it is sure (content at ``--high`` or
more, boilerplate at ``--low`` or less), each such block weighted ``--weight`` times its
usual weight. Within cross-validation both fits see only the fold's training pages, so
the held-out fold's pages never label anything. ``--anchored`` labels by the snippets
instead: the blocks that read like text between a page's first and last snippet block
are content (a story's paragraphs between two of its snippets); one fit, or with
``--floor`` two, the second without the blocks the first gives less than the floor.
Scored with ``benchmarks.boosted_static``'s harness (folds by site on the four training
sets; ``--unseen``: the six sets no model trains on; ``--seed``: LightGBM's). An
experiment, not in the package; output in
``benchmarks/out/boosted_self_training/<high>-<low>-<weight>-s<seed>/`` (anchored:
``anchored-<weight>-<floor>-s<seed>/``); needs the ``[train]`` extra.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager
from dataclasses import replace
from itertools import pairwise
from typing import Any

import numpy as np

from benchmarks import boosted_static, grouped_cv
from benchmarks.boosted_static import experiment_parser, measure, print_scores
from benchmarks.grouped_cv import ROOT
from scrapy_boilerplate.neural.boosted_features import BOOSTED_FEATURES, TEXT_LIKE_WORDS
from scrapy_boilerplate.training import boosted as training_module
from scrapy_boilerplate.training.boosted import BoostedConfig, BoostedCorpus, page_decided

OUT = ROOT / "benchmarks" / "out" / "boosted_self_training"
#: the training sets whose references are snippets: most of their blocks have no label
SNIPPET_SETS = ("trafilatura-eval",)
_LINK = BOOSTED_FEATURES.index("link_density")


def snippet_pages(
    corpus: BoostedCorpus, pages: Sequence[int], sets: Sequence[str]
) -> Iterator[tuple[int, int, int]]:
    """``(page, first row, end row)`` of each of ``pages`` from the ``sets``."""
    for p in pages:
        if corpus.datasets[p] in sets:
            yield p, int(corpus.offsets[p]), int(corpus.offsets[p + 1])


def text_like(corpus: BoostedCorpus, rows: np.ndarray) -> np.ndarray:
    """Which ``rows`` read like text: at least :data:`TEXT_LIKE_WORDS` words, at most a
    third of them linked (as the trees' window columns count them)."""
    return (corpus.words[rows] >= TEXT_LIKE_WORDS) & (corpus.features[rows, _LINK] * 3 <= 1)


def unlabelled_rows(
    corpus: BoostedCorpus, pages: Sequence[int], cfg: BoostedConfig, sets: Sequence[str]
) -> np.ndarray:
    """The rows of ``pages`` of the ``sets`` that have no label and that the trees
    decide (:func:`~scrapy_boilerplate.training.boosted.page_decided`)."""
    found = [
        lo + np.flatnonzero(page_decided(corpus, p, cfg) & (corpus.labels[lo:hi] < 0))
        for p, lo, hi in snippet_pages(corpus, pages, sets)
    ]
    return np.concatenate(found) if found else np.zeros(0, np.int64)


def between_content(corpus: BoostedCorpus, pages: Sequence[int], sets: Sequence[str]) -> np.ndarray:
    """The rows of ``pages`` of the ``sets`` that have no label, read like text
    (:func:`text_like`) and lie between the page's first and last block labelled
    content: a story's paragraphs between two of its snippets."""
    found = []
    for _, lo, hi in snippet_pages(corpus, pages, sets):
        content = np.flatnonzero(corpus.labels[lo:hi] == 1)
        if len(content) < 2:
            continue
        rows = np.arange(lo + content[0] + 1, lo + content[-1])
        found.append(rows[(corpus.labels[rows] < 0) & text_like(corpus, rows)])
    return np.concatenate(found) if found else np.zeros(0, np.int64)


def propagated(corpus: BoostedCorpus, pages: Sequence[int], sets: Sequence[str]) -> np.ndarray:
    """New labels along the page from the snippets' own (-1 where none): each stretch of
    unlabelled text-like blocks (:func:`text_like`) between two labelled blocks takes
    their label when both agree, a stretch between a must-not block and the page's start
    or end takes "boilerplate" (comments, related stories, a footer), and a stretch
    between a must and a must-not block stays unlabelled (where one ends is unknown);
    every other row -1."""
    labels = np.full(len(corpus.labels), -1, np.int8)
    for _, lo, hi in snippet_pages(corpus, pages, sets):
        known = lo + np.flatnonzero(corpus.labels[lo:hi] >= 0)
        if len(known) == 0:
            continue
        edges = [(lo - 1, -2), *((int(r), int(corpus.labels[r])) for r in known), (hi, -2)]
        for (start, left), (end, right) in pairwise(edges):
            if (left, right) in ((1, 1), (0, 0), (0, -2), (-2, 0)):
                rows = np.arange(start + 1, end)
                labels[rows[text_like(corpus, rows)]] = max(left, right)
    return labels


def outside_story(
    corpus: BoostedCorpus, pages: Sequence[int], cfg: BoostedConfig, sets: Sequence[str]
) -> np.ndarray:
    """The rows of ``pages`` of the ``sets`` that have no label, that the trees decide
    and that lie before the page's first or after its last block labelled content (on
    pages with two such blocks: outside the story the snippets bracket)."""
    found = []
    for p, lo, hi in snippet_pages(corpus, pages, sets):
        labels = corpus.labels[lo:hi]
        content = np.flatnonzero(labels == 1)
        if len(content) < 2:
            continue
        outside = np.ones(hi - lo, bool)
        outside[content[0] : content[-1] + 1] = False
        found.append(lo + np.flatnonzero(outside & page_decided(corpus, p, cfg) & (labels < 0)))
    return np.concatenate(found) if found else np.zeros(0, np.int64)


def pseudo_labels(probability: np.ndarray, high: float, low: float) -> np.ndarray:
    """1 where ``probability`` is at least ``high``, 0 where at most ``low``, -1 (still
    unknown) between."""
    labels = np.full(len(probability), -1, np.int8)
    labels[probability >= high] = 1
    labels[probability <= low] = 0
    return labels


def anchored_labels(
    corpus: BoostedCorpus,
    pages: Sequence[int],
    cfg: BoostedConfig,
    first: Any,
    floor: float,
    outside: float,
    propagate: bool = False,
) -> tuple[np.ndarray, np.ndarray]:
    """Rows and their new labels (-1: still none): the text-like blocks between the
    snippets content, unless the ``first`` fit (None: no first fit) gives them less
    than ``floor``; with ``outside``, the blocks outside the story that it gives at most
    ``outside`` boilerplate; ``propagate``: the labels of :func:`propagated` instead of
    the text-like blocks between the snippets."""
    if propagate:
        every = propagated(corpus, pages, SNIPPET_SETS)
        rows = np.flatnonzero(every >= 0)
        labels = every[rows]
    else:
        rows = between_content(corpus, pages, SNIPPET_SETS)
        labels = np.ones(len(rows), np.int8)
    if floor > 0:
        doubted = first.predict_proba(corpus.features[rows])[:, 1] < floor
        labels[doubted & (labels == 1)] = -1
    if outside > 0:
        out = outside_story(corpus, pages, cfg, SNIPPET_SETS)
        sure = first.predict_proba(corpus.features[out])[:, 1] <= outside
        rows = np.concatenate([rows, out])
        labels = np.concatenate([labels, np.where(sure, 0, -1).astype(np.int8)])
    return rows, labels


@contextmanager
def relabelled_training(
    relabel: Callable[..., tuple[np.ndarray, np.ndarray]], weight: float, kind: str
) -> Iterator[None]:
    """For the run: every fit of the trees made with some rows of its pages labelled anew:
    ``relabel(corpus, pages, cfg, first_fit)`` gives rows and their labels (-1: still
    none; ``first_fit()`` fits the trees on the labels as they are, for a relabelling
    that reads them), and those labelled count ``weight`` times their usual weight. The
    corpus itself is not changed; ``kind`` names the relabelling in the log."""
    own_train = training_module.train_boosted
    own_weights = training_module.block_weights
    extra: dict[str, np.ndarray] = {"rows": np.zeros(0, np.int64)}

    def weights(corpus: BoostedCorpus, keep: np.ndarray, page_balance: float) -> np.ndarray:
        w = own_weights(corpus, keep, page_balance)
        return np.where(np.isin(keep, extra["rows"]), w * weight, w)

    def train(
        corpus: BoostedCorpus,
        cfg: BoostedConfig | None = None,
        pages: Sequence[int] | None = None,
        log: Callable[[str], None] | None = None,
    ) -> Any:
        cfg = cfg or BoostedConfig()
        pages = range(len(corpus)) if pages is None else pages
        rows, labels = relabel(corpus, pages, cfg, lambda: own_train(corpus, cfg, pages, log))
        sure = labels >= 0
        if log:
            log(
                f"{kind}: {int(sure.sum())} of {len(rows)} unlabelled blocks labelled "
                f"({int((labels == 1).sum())} content)"
            )
        relabelled = corpus.labels.copy()
        relabelled[rows[sure]] = labels[sure]
        extra["rows"] = rows[sure]
        try:
            return own_train(replace(corpus, labels=relabelled), cfg, pages, log)
        finally:
            extra["rows"] = np.zeros(0, np.int64)

    modules = (grouped_cv, boosted_static)
    before = [module.train_boosted for module in modules]
    training_module.block_weights = weights  # type: ignore[assignment]
    for module in modules:
        module.train_boosted = train  # type: ignore[attr-defined]
    try:
        yield
    finally:
        training_module.block_weights = own_weights  # type: ignore[assignment]
        for module, function in zip(modules, before, strict=True):
            module.train_boosted = function  # type: ignore[attr-defined]


def self_training(
    high: float,
    low: float,
    weight: float,
    anchored: bool = False,
    floor: float = 0.0,
    outside: float = 0.0,
    propagate: bool = False,
) -> AbstractContextManager[None]:
    """For the run: every fit of the trees made twice, the second with the snippet
    sets' unlabelled blocks labelled by the first where it is sure; ``anchored``: made
    once, with the text-like blocks between a page's snippets labelled content
    (:func:`between_content`) instead, those a first fit gives less than ``floor`` left
    out (inline teasers and promotions between two paragraphs of the story), and (with
    ``outside``) the blocks outside the story that it gives at most ``outside`` labelled
    boilerplate (:func:`outside_story`)."""

    def relabel(
        corpus: BoostedCorpus, pages: Sequence[int], cfg: BoostedConfig, first_fit: Any
    ) -> tuple[np.ndarray, np.ndarray]:
        first = first_fit() if not anchored or floor or outside else None
        if anchored:
            return anchored_labels(corpus, pages, cfg, first, floor, outside, propagate)
        rows = unlabelled_rows(corpus, pages, cfg, SNIPPET_SETS)
        return rows, pseudo_labels(first.predict_proba(corpus.features[rows])[:, 1], high, low)

    return relabelled_training(relabel, weight, "anchored" if anchored else "self-training")


def main(argv: list[str] | None = None) -> int:
    parser = experiment_parser(__doc__.split("\n\n")[0], OUT)
    parser.add_argument("--high", type=float, default=0.9)
    parser.add_argument("--low", type=float, default=0.1)
    parser.add_argument("--weight", type=float, default=0.5)
    parser.add_argument(
        "--anchored",
        action="store_true",
        help="label the text-like blocks between a page's snippets content instead",
    )
    parser.add_argument(
        "--floor",
        type=float,
        default=0.0,
        help="--anchored: leave out the blocks a first fit gives less than this",
    )
    parser.add_argument(
        "--outside",
        type=float,
        default=0.0,
        help="--anchored: label boilerplate the blocks outside the story a first fit "
        "gives at most this",
    )
    parser.add_argument(
        "--propagate",
        action="store_true",
        help="--anchored: the snippets' labels carried along the page (propagated)",
    )
    args = parser.parse_args(argv)
    name = f"{args.high:g}-{args.low:g}-{args.weight:g}-s{args.seed}"
    if args.anchored:
        name = f"anchored-{args.weight:g}-{args.floor:g}-{args.outside:g}-s{args.seed}"
        if args.propagate:
            name = name.replace("anchored", "propagated")
    with self_training(
        args.high, args.low, args.weight, args.anchored, args.floor, args.outside, args.propagate
    ):
        scores = measure(args, args.out / name)
    print_scores(f"boosted, self-trained ({name})", scores)
    return 0


if __name__ == "__main__":
    sys.exit(main())
