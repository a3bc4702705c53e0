#!/usr/bin/env python
"""Train the default labeler on WCXB's pages of every type, told what kind of page it reads.

    python -m benchmarks.boosted_page_types [--other-weight 0.3] [--kind-columns] \\
        [--unseen] [--seed N]

The shipped trees learn from WCXB's article pages only. Trained on every type (forums,
listings, products, services, collections, documentation), the first trees of this
labeler gained on wcxb-dev, which scores every type, and lost on the news sets: one
model for every kind of page blurs what an article's boilerplate is. This experiment
tries the pages of every type again, on the current columns, with the other types'
blocks weighted ``--other-weight`` against an article's (1: as many as their words say),
and optionally (``--kind-columns``) with ``benchmarks.boosted_page_kind``'s nine columns
that describe the page (declares an article or a discussion, ``<h1>`` count, the shares
of text-like, ``<article>``, comment-class, list, ``<p>`` and longest-block words), so the
trees can tell a forum from a story instead of averaging over both.

The harness is ``benchmarks.boosted_static``'s (every page of a held-out fold scored,
whatever its type; ``--unseen``: the six unseen sets, scored by a model on all training
pages). Compare with ``python -m benchmarks.grouped_cv --seed N``. Not part of the
package. Output in ``benchmarks/out/boosted_page_types/``; the ``[train]`` extra.

Measured 2026-11-29 (docs/neural.md): at ``--other-weight 0.3`` the training sets' mean
rose by 0.007 over three seeds (WCXB's non-article pages, mozilla-readability,
zh-cwced-dev) and the six unseen news sets' fell by 0.008 (at 0.1: +0.007 and -0.004);
lower with every seed and weight tried. Not kept: the default stays an article extractor.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterator
from contextlib import contextmanager, nullcontext

from benchmarks.boosted_page_kind import COLUMNS, page_kind_columns
from benchmarks.boosted_static import experiment_parser, extra_columns, measure, print_scores
from benchmarks.grouped_cv import ROOT
from scrapy_boilerplate.training import boosted as training_module

OUT = ROOT / "benchmarks" / "out" / "boosted_page_types"


@contextmanager
def other_types_weighted(weight: float) -> Iterator[None]:
    """Training weights of the blocks of pages of a type other than article times
    ``weight``: ``BoostedConfig.other_page_weight``, for the harness's runs, which build
    their own configurations (``train_boosted`` reads ``block_weights`` from its
    module)."""
    own = training_module.block_weights

    def weighted(corpus, keep, page_balance):  # type: ignore[no-untyped-def]
        factors = training_module.other_type_factors(corpus, keep, weight)
        return own(corpus, keep, page_balance) * factors

    training_module.block_weights = weighted  # type: ignore[assignment]
    try:
        yield
    finally:
        training_module.block_weights = own  # type: ignore[assignment]


def command_line() -> argparse.ArgumentParser:
    """The experiments' shared command line, every page type by default, and this one's
    ``--other-weight`` and ``--kind-columns``."""
    parser = experiment_parser(__doc__.split("\n\n")[0], OUT)
    parser.set_defaults(page_types="")
    parser.add_argument("--other-weight", type=float, default=1.0)
    parser.add_argument("--kind-columns", action="store_true")
    return parser


def main(argv: list[str] | None = None) -> int:
    args = command_line().parse_args(argv)
    columns = extra_columns(COLUMNS, page_kind_columns) if args.kind_columns else nullcontext()
    with columns, other_types_weighted(args.other_weight):
        scores = measure(args, args.out)
    kind = " + the page-kind columns" if args.kind_columns else ""
    heading = f"boosted on every WCXB page type (others at {args.other_weight:g}){kind}"
    print_scores(heading, scores)
    return 0


if __name__ == "__main__":
    sys.exit(main())
