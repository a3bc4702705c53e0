#!/usr/bin/env python
"""Decoding with the grow threshold of the runs set by the page's surest block.

    python -m benchmarks.grouped_cv --model boosted        # the fold models, first
    python -m benchmarks.relative_growth [--variants 0.45,0.5,0.55] [--unseen]

The default's runs decoding joins every tree-decided block at the grow threshold (0.4)
to a run holding a block at the seed threshold (0.55), on every page alike. On a page
with a story the trees are sure of (0.95 and more), the doubtful blocks next to it (0.4
to 0.55: a teaser list after the story, a text widget before it) are more likely
boilerplate than on a page where every block is doubtful. Variant ``C``: each page's
grow threshold is ``C`` times its highest probability, never below the model's grow
threshold nor above its seed threshold. Everything else decodes as shipped (short
blocks, footers, rescues, the summary seed).

Scored as every ``boosted`` choice: the training sets cross-validated by site (each
fold's pages by the model of ``benchmarks.grouped_cv`` that never saw their site), then
(``--unseen``) the shipped model on the six sets no model trained on. An experiment that
does not ship. Not a test: nothing is asserted.
"""

from __future__ import annotations

import sys

import numpy as np

from .boosted_variants import DecodingLabeler, decoding_main


def relative_grow_threshold(
    highest: float, share: float, grow_threshold: float, threshold: float
) -> float:
    """``share`` times the page's ``highest`` probability, within ``grow_threshold`` and
    ``threshold``."""
    return min(max(share * highest, grow_threshold), threshold)


class RelativeGrowthLabeler(DecodingLabeler):
    """The boosted labeler, each page's grow threshold a share (the variant) of its
    highest probability, within the model's two thresholds."""

    @classmethod
    def parse(cls, variant: str) -> float:
        return float(variant)

    def decisions(self, doc, scores) -> np.ndarray:  # type: ignore[no-untyped-def]
        if len(scores.probability):
            grow = relative_grow_threshold(
                float(scores.probability.max()),
                self.variant,
                scores.grow_threshold,
                scores.threshold,
            )
            scores = scores._replace(grow_threshold=grow)
        return scores.content(scores.threshold)


def main(argv: list[str] | None = None) -> int:
    return decoding_main(argv, __doc__.split("\n\n")[0], RelativeGrowthLabeler, "0.45,0.5,0.55")


if __name__ == "__main__":
    sys.exit(main())
