#!/usr/bin/env python
"""Decoding with the page's own summary: the block that holds the meta description seeds
a run of content.

    python -m benchmarks.grouped_cv --model boosted        # the fold models, first
    python -m benchmarks.description_decoding [--floors 0.4,0.2,0.0] [--unseen]
    python -m benchmarks.description_decoding --floors 0.2 --folds-dir benchmarks/out/baseline_s1/boosted

A site writes its ``<meta name="description">`` from the story's first paragraph or its
standfirst; the block holding most of its words (``benchmarks.boosted_description``'s
anchor) is then where the story begins. As columns of the trees the anchor tied on the
training sets and lifted every unseen set; here it acts after the trees instead: if the
anchor is a block the trees decide and its probability reaches ``floor``, it counts as a
seed of the runs decoding (as if it reached the seed threshold), so the run around it
is content. Everything else decodes as shipped; a floor of 1 changes nothing. (The
rule shipped, floor 0.2, as the default labeler's ``seed_summary``; "shipped" here is
the labeler without it.)

Scored as every ``boosted`` choice: the training sets cross-validated by site (each
fold's pages by the model of ``benchmarks.grouped_cv`` that never saw their site), then
(``--unseen``) the shipped model on the six sets no model trained on. An experiment that
does not ship. Not a test: nothing is asserted.
"""

from __future__ import annotations

import sys
from typing import Any

import numpy as np

from scrapy_boilerplate.neural.boosted import BoostedLabeler
from scrapy_boilerplate.neural.summary import Summary, page_summary

from .boosted_variants import (
    RunnerFor,
    SeedingLabeler,
    compare,
    decoding_parser,
    labeler_runner,
)


def description_anchor(doc: Any) -> int:
    """The index of the first block holding the most of the page's description's terms
    (at least 60 % of five or more; the package's
    :class:`~scrapy_boilerplate.neural.summary.Summary`, which took it from here), or -1."""
    summary = Summary.of(page_summary(doc.root))
    return -1 if summary is None else summary.block([block.text for block in doc.blocks])


class DescriptionLabeler(SeedingLabeler):
    """The labeler without the shipped summary seed, the description's block a seed at
    ``floor`` or more."""

    def __init__(self, model_dir: str | None, floor: float) -> None:
        super().__init__(model_dir, seed_summary=False)
        self.floor = floor

    def seed_row(self, doc: Any, scores: Any) -> int:
        anchor = description_anchor(doc)
        if anchor < 0 or not scores.long[anchor]:
            return -1
        return int(np.searchsorted(scores.rows, anchor))


def variant_runner(floor: float | None) -> RunnerFor:
    """The default chain with the variant's labeler (None: the labeler without the
    seed, as before it shipped), for a model directory."""
    if floor is None:
        return labeler_runner(lambda d: BoostedLabeler(d, seed_summary=False), "shipped")
    return labeler_runner(lambda d: DescriptionLabeler(d, floor), f"floor {floor:g}")


def main(argv: list[str] | None = None) -> int:
    parser = decoding_parser(__doc__.split("\n\n")[0])
    parser.add_argument("--floors", default="0.4,0.2,0.0")
    args = parser.parse_args(argv)
    floors: list[float | None] = [None, *map(float, args.floors.split(","))]
    labels = ["shipped" if f is None else f"floor {f:g}" for f in floors]
    runners = [variant_runner(f) for f in floors]
    compare(runners, labels, folds_dir=args.folds_dir, cv=not args.skip_cv, unseen=args.unseen)
    return 0


if __name__ == "__main__":
    sys.exit(main())
