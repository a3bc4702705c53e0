#!/usr/bin/env python
"""Decoding the trees' probabilities with Viterbi instead of the runs (structured decoding).

    python -m benchmarks.grouped_cv --model boosted        # the fold models, first
    python -m benchmarks.viterbi_decoding [--variants 'log:1,log:2,one:1'] [--centre 0.5] [--unseen]
    python -m benchmarks.viterbi_decoding --folds-dir benchmarks/out/baseline_s1/boosted

The shipped labeler decodes by runs: a run of consecutive tree-decided blocks, each at the
grow threshold (0.4), is content if one of them reaches the seed threshold (0.55), a
hand-made hysteresis. Here the same blocks are labelled by the best sequence of two
labels under a chain model instead (the issue's "structured decoding"): each block's
unary score for content is ``weight * (logit(p) - logit(centre))`` (0 for boilerplate),
each change of label between neighbours costs ``switch``, and the exact Viterbi of
:mod:`scrapy_boilerplate.neural.viterbi` finds the labels. ``weight`` is 1 for every
block (``one``) or ``log(1 + words)`` (``log``, the trees' training weight): a long block
pulls its neighbours along more than a short one. Navigation links cannot be content (as
in the runs), the summary seed raises its block as shipped, and the short blocks, footers
and rescues decide as shipped. A switch cost of 0 is a plain threshold at ``centre``.

Scored by ``benchmarks.boosted_variants.compare``, as the other decoding experiments.
Does not ship; nothing is asserted.
"""

from __future__ import annotations

import sys
from typing import Any

import numpy as np

from scrapy_boilerplate.filters.base import set_flags
from scrapy_boilerplate.neural.boosted import BlockScores, BoostedLabeler
from scrapy_boilerplate.neural.viterbi import viterbi

from .boosted_variants import (
    RunnerFor,
    ScoresLabeler,
    compare,
    decoding_parser,
    labeler_runner,
)

#: the unary score of a block that cannot be content (a navigation link)
EXCLUDED = -1e6


def switch_labels(
    probability: np.ndarray, weight: np.ndarray, centre: float, switch: float, excluded: np.ndarray
) -> np.ndarray:
    """The content labels (bool, in page order) that maximise the sum of the content
    blocks' ``weight * (logit(p) - logit(centre))`` less ``switch`` per change of label."""
    p = np.clip(probability.astype(np.float64), 1e-6, 1 - 1e-6)
    gain = weight * (np.log(p / (1 - p)) - np.log(centre / (1 - centre)))
    unary = np.zeros((len(p), 2))
    unary[:, 1] = np.where(excluded, EXCLUDED, gain)
    edges = np.tile([0.0, -switch, -switch, 0.0], (max(len(p) - 1, 0), 1))
    return viterbi(unary, edges, 1.0).astype(bool)


class ViterbiLabeler(ScoresLabeler):
    """The default labeler, its runs decoding replaced by :func:`switch_labels`."""

    def __init__(self, model_dir: str | None, weighting: str, switch: float, centre: float) -> None:
        super().__init__(model_dir)
        self.weighting, self.switch, self.centre = weighting, switch, centre

    def apply(self, doc: Any, scores: BlockScores) -> bool:
        words = scores.words[scores.rows].astype(np.float64)
        weight = np.log1p(words) if self.weighting == "log" else np.ones_like(words)
        labels = switch_labels(
            scores.probability, weight, self.centre, self.switch, scores.excluded
        )
        return set_flags(doc.blocks, scores.every_block(labels).tolist())


def variant_runner(weighting: str, switch: float, centre: float) -> RunnerFor:
    """The default chain with a Viterbi-decoding labeler, for a model directory."""
    return labeler_runner(
        lambda d: ViterbiLabeler(d, weighting, switch, centre), f"{weighting}:{switch:g}"
    )


def main(argv: list[str] | None = None) -> int:
    parser = decoding_parser(__doc__.split("\n\n")[0])
    parser.add_argument(
        "--variants",
        default="one:0.5,one:1,one:2,log:1,log:2,log:4",
        help="weighting:switch pairs, comma-separated",
    )
    parser.add_argument("--centre", type=float, default=0.5)
    args = parser.parse_args(argv)
    pairs = [v.split(":") for v in args.variants.split(",")]
    runners = [labeler_runner(BoostedLabeler, "shipped")]
    runners += [variant_runner(w, float(s), args.centre) for w, s in pairs]
    labels = ["shipped"] + [f"{w}:{s}" for w, s in pairs]
    compare(runners, labels, folds_dir=args.folds_dir, cv=not args.skip_cv, unseen=args.unseen)
    return 0


if __name__ == "__main__":
    sys.exit(main())
