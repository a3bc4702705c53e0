#!/usr/bin/env python
"""The default's article model and the every-type model blended on every page: each
block's content logit a weighted mean of the two models' logits.

    python -m benchmarks.grouped_cv --model boosted                          # article folds
    python -m benchmarks.boosted_page_types --other-weight 0.3 --seed 0      # every-type folds
    python -m benchmarks.blended_models [--weights 0.25,0.5] [--unseen]

The article model leads on news (the six unseen sets 0.926 against 0.916), the every-type
model (``pages="any"``, the shipped discussions model) on WCXB's other page types and on
mozilla-readability and zh-cwced-dev; ``pages`` picks one of them for a whole crawl. This
experiment asks whether one labeler reading both, ``logit = (1 - w) * article + w *
every-type``, keeps the article model's news figures and gains on the other pages (at
twice the trees' time). Decoding as shipped (runs, short blocks, footers, rescues, the
summary seed). Scored as every ``boosted`` choice: the training sets cross-validated by
site (both models of the fold that never saw the page's site), then (``--unseen``) the
shipped models on the six unseen sets. An experiment that does not ship. Not a test:
nothing is asserted.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

from scrapy_boilerplate.neural.boosted import (
    DISCUSSIONS_MODEL_DIR,
    BoostedLabeler,
    get_boosted_model,
    seeded_by_summary,
)

from .boosted_variants import RunnerFor, compare, labeler_runner
from .grouped_cv import OUT

#: the every-type run's fold models (``boosted_page_types --other-weight 0.3 --seed 0``)
EVERY_TYPE_FOLDS = OUT.parent / "boosted_page_types" / "boosted"


def blend(p: np.ndarray, q: np.ndarray, weight: float) -> np.ndarray:
    """The probability whose logit is ``(1 - weight) * logit(p) + weight * logit(q)``."""
    eps = 1e-6
    p, q = np.clip(p, eps, 1 - eps), np.clip(q, eps, 1 - eps)
    logit = (1 - weight) * np.log(p / (1 - p)) + weight * np.log(q / (1 - q))
    return (1.0 / (1.0 + np.exp(-logit))).astype(np.float32)


class BlendedLabeler(BoostedLabeler):
    """The article model's trees (``model_dir``) blended with another model's
    (``other_dir``) at ``weight``, on every page."""

    def __init__(self, model_dir: str | None, other_dir: str, weight: float) -> None:
        super().__init__(model_dir, discussions=False, seed_summary=False)
        self.other_dir, self.weight = other_dir, weight

    def scored(self, doc):  # type: ignore[no-untyped-def]
        scores = super().scored(doc)  # the article model's, without the summary seed
        if not len(scores.rows):
            return scores
        from scrapy_boilerplate.neural.boosted_features import boosted_features

        other = get_boosted_model(self.other_dir).content_probability(
            boosted_features(doc), scores.rows
        )
        probability = blend(scores.probability, other, self.weight)
        probability = seeded_by_summary(doc, scores.rows, probability, scores.threshold)
        return scores._replace(probability=probability)


def blended_runner(weight: float, every_type: Path) -> RunnerFor:
    """The default chain with the blended labeler; a fold's article model directory
    ``.../foldK`` is paired with the every-type run's ``foldK`` (None: the shipped
    models)."""

    def make(model_dir: str | None) -> BlendedLabeler:
        other = str(every_type / Path(model_dir).name) if model_dir else str(DISCUSSIONS_MODEL_DIR)
        return BlendedLabeler(model_dir, other, weight)

    return labeler_runner(make, f"w {weight:g}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--weights", default="0.25,0.5")
    parser.add_argument("--every-type-folds", type=Path, default=EVERY_TYPE_FOLDS)
    parser.add_argument("--folds-dir", type=Path, default=OUT / "boosted")
    parser.add_argument("--unseen", action="store_true", help="also the six unseen sets")
    parser.add_argument("--skip-cv", action="store_true", help="only the unseen sets")
    args = parser.parse_args(argv)
    weights = [float(w) for w in args.weights.split(",")]
    runners = [labeler_runner(lambda d: BoostedLabeler(d, discussions=False), "article")]
    runners += [blended_runner(w, args.every_type_folds) for w in weights]
    labels = ["article"] + [f"w {w:g}" for w in weights]
    compare(runners, labels, folds_dir=args.folds_dir, cv=not args.skip_cv, unseen=args.unseen)
    return 0


if __name__ == "__main__":
    sys.exit(main())
