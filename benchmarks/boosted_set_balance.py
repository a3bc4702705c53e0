#!/usr/bin/env python
"""Do the training sets weighted toward equal shares help the default labeler (``boosted``)?

    python -m benchmarks.boosted_set_balance --balance 0.5 [--unseen] [--seed N]

The trees are fitted on the labelled blocks of four sets, each block weighted by
``log(1 + words)``; WCXB's 704 article pages then hold most of the weight, and
Readability's 130 and CWCED's 35 pages little, while the cross-validated figure every
choice is made by is the plain mean of the four sets. Here each set's weights are
multiplied by ``(mean set total / set total) ** balance``: 0 is the shipped training, 1
gives every set the same total (the weights keep their sum). Scored with
``benchmarks.boosted_static``'s harness (folds by site on the four training sets;
``--unseen``: the six sets no model trains on; ``--seed``: LightGBM's). An experiment,
not in the package; output in ``benchmarks/out/boosted_set_balance/<balance>/``; needs
the ``[train]`` extra.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager

import numpy as np

from benchmarks.boosted_static import experiment_parser, measure, print_scores
from benchmarks.grouped_cv import ROOT
from scrapy_boilerplate.training import boosted as training_module
from scrapy_boilerplate.training.boosted import BoostedCorpus

OUT = ROOT / "benchmarks" / "out" / "boosted_set_balance"


def set_balanced(weights: np.ndarray, sets: np.ndarray, balance: float) -> np.ndarray:
    """``weights`` with each set's multiplied by ``(mean total / its total) ** balance``,
    scaled back to their sum (``sets``: each weight's set, any hashable labels)."""
    if balance == 0.0 or len(weights) == 0:
        return weights
    names, index = np.unique(sets, return_inverse=True)
    totals = np.bincount(index, weights=weights, minlength=len(names))
    factors = (totals.mean() / np.maximum(totals, 1e-12)) ** balance
    balanced = weights * factors[index]
    return balanced * (weights.sum() / balanced.sum())


@contextmanager
def balanced_sets(balance: float) -> Iterator[None]:
    """For the run: ``train_boosted``'s block weights set-balanced by ``balance``."""
    own = training_module.block_weights

    def weights(corpus: BoostedCorpus, keep: np.ndarray, page_balance: float) -> np.ndarray:
        page = np.searchsorted(corpus.offsets, keep, side="right") - 1
        sets = np.asarray(corpus.datasets)[page]
        return set_balanced(own(corpus, keep, page_balance), sets, balance)

    training_module.block_weights = weights  # type: ignore[assignment]
    try:
        yield
    finally:
        training_module.block_weights = own  # type: ignore[assignment]


def main(argv: list[str] | None = None) -> int:
    parser = experiment_parser(__doc__.split("\n\n")[0], OUT)
    parser.add_argument("--balance", type=float, default=0.5)
    args = parser.parse_args(argv)
    with balanced_sets(args.balance):
        scores = measure(args, args.out / f"{args.balance:g}")
    print_scores(f"boosted, training sets balanced by {args.balance:g}", scores)
    return 0


if __name__ == "__main__":
    sys.exit(main())
