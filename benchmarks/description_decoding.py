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

import argparse
import sys
from pathlib import Path
from typing import Any

import numpy as np

from scrapy_boilerplate.evaluation.runners import Runner
from scrapy_boilerplate.extraction import Extractor
from scrapy_boilerplate.neural.boosted import BoostedLabeler, DominantBlock
from scrapy_boilerplate.neural.filter import labeler_chain
from scrapy_boilerplate.neural.summary import Summary, page_summary

from .boosted_variants import RunnerFor, compare
from .grouped_cv import OUT


def description_anchor(doc: Any) -> int:
    """The index of the first block holding the most of the page's description's terms
    (at least 60 % of five or more; the package's
    :class:`~scrapy_boilerplate.neural.summary.Summary`, which took it from here), or -1."""
    summary = Summary.of(page_summary(doc.root))
    return -1 if summary is None else summary.block([block.text for block in doc.blocks])


class DescriptionLabeler(BoostedLabeler):
    """The boosted labeler, the description's block a seed at ``floor`` or more."""

    def __init__(self, model_dir: str | None, floor: float) -> None:
        super().__init__(model_dir, seed_summary=False)
        self.floor = floor

    def __call__(self, doc) -> bool:  # type: ignore[no-untyped-def]
        self.model()
        if not doc.blocks:
            return False
        scores = self.scored(doc)
        anchor = description_anchor(doc)
        probability = scores.probability
        if anchor >= 0 and scores.long[anchor]:
            row = int(np.searchsorted(scores.rows, anchor))
            if probability[row] >= self.floor:
                probability = probability.copy()
                probability[row] = max(probability[row], scores.threshold)
        return scores._replace(probability=probability).decide(doc.blocks, scores.threshold)


def variant_runner(floor: float | None) -> RunnerFor:
    """The default chain with the variant's labeler (None: as shipped), for a model
    directory."""

    def runner_for(model_dir: str | None) -> Runner:
        if floor is None:
            # (the default labeler before the rule shipped as its seed_summary)
            labeler: BoostedLabeler = BoostedLabeler(model_dir, seed_summary=False)
        else:
            labeler = DescriptionLabeler(model_dir, floor)
        chain = labeler_chain(labeler, "boosted", True, None, True, True, DominantBlock(labeler))
        ex = Extractor(chain, "boosted")
        name = "shipped" if floor is None else f"floor {floor:g}"
        return Runner(name, "ours", lambda html, url, lang: ex.extract(html, url).text)

    return runner_for


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--floors", default="0.4,0.2,0.0")
    parser.add_argument("--unseen", action="store_true")
    parser.add_argument("--skip-cv", action="store_true")
    parser.add_argument(
        "--folds-dir", type=Path, default=OUT / "boosted", help="grouped_cv's fold models"
    )
    args = parser.parse_args(argv)
    floors: list[float | None] = [None, *map(float, args.floors.split(","))]
    labels = ["shipped" if f is None else f"floor {f:g}" for f in floors]
    runners = [variant_runner(f) for f in floors]
    compare(runners, labels, folds_dir=args.folds_dir, cv=not args.skip_cv, unseen=args.unseen)
    return 0


if __name__ == "__main__":
    sys.exit(main())
