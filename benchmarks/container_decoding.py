#!/usr/bin/env python
"""Decoding with the article's container: blocks outside the page's most content-like
element need a higher probability to be content.

    python -m benchmarks.grouped_cv --model boosted        # the fold models, first
    python -m benchmarks.container_decoding [--variants 0.5:0.8,0.5:0.9] [--unseen]

The trees decide each block from its own columns and the page around it; a sidebar list
of five-word headlines ("Carmack sorry about performance of Rage on PC 89 6days 4hrs
ago") can reach the threshold beside the story. This variant reads the trees'
probabilities once more over the collapsed DOM: each node's score is the sum over its
long blocks of ``words * (p - centre)``, the node with the highest score is taken for
the article's container, and a long block outside it is content only if its probability
reaches ``outside`` (a variant ``centre:outside``). Everything else decodes as shipped.

Scored as every ``boosted`` choice: the training sets cross-validated by site (each
fold's pages by the model of ``benchmarks.grouped_cv`` that never saw their site), then
(``--unseen``) the shipped model on the six sets no model trained on. An experiment that
does not ship. Not a test: nothing is asserted.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

from scrapy_boilerplate.evaluation.datasets import open_dataset
from scrapy_boilerplate.evaluation.evaluate import RunnerResult, run_page
from scrapy_boilerplate.evaluation.runners import Runner
from scrapy_boilerplate.extraction import Extractor
from scrapy_boilerplate.filters.base import Chain, set_flags
from scrapy_boilerplate.neural.boosted import (
    BoostedLabeler,
    DominantBlock,
    content_runs,
    short_block_decisions,
)
from scrapy_boilerplate.neural.filter import labeler_chain
from scrapy_boilerplate.neural.structure import Structure
from scrapy_boilerplate.training.dataset import SHIPPED_TRAINING_SETS

from .grouped_cv import OUT, FoldPages

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT.parent / "shared" / "data"
UNSEEN = (
    "cleaneval-train",
    "cleanportaleval",
    "dragnet-test",
    "htmltotext-benchmark",
    "l3s-gn1",
    "utomo-big9",
)


class ContainerLabeler(BoostedLabeler):
    """The boosted labeler, long blocks outside the best-scoring node held to
    ``outside``."""

    def __init__(self, model_dir: str | None, centre: float, outside: float) -> None:
        super().__init__(model_dir)
        self.centre, self.outside = centre, outside

    def __call__(self, doc) -> bool:  # type: ignore[no-untyped-def]
        self.model()
        if not doc.blocks:
            return False
        scores = self.scored(doc)
        excluded = scores.excluded
        if len(scores.rows) > 1:
            s = Structure(doc.blocks, doc.root)
            gain = np.zeros(len(doc.blocks) + 1)
            gain[scores.rows + 1] = scores.words[scores.rows] * (scores.probability - self.centre)
            prefix = np.cumsum(gain)
            first = np.asarray(s.node_first, dtype=np.int64)
            last = np.asarray(s.node_last, dtype=np.int64) + 1
            best = int(np.argmax(prefix[last] - prefix[first]))
            inside = (scores.rows >= first[best]) & (scores.rows < last[best])
            excluded = excluded | (~inside & (scores.probability < self.outside))
        content = np.zeros(len(doc.blocks), dtype=bool)
        content[scores.rows] = content_runs(
            scores.probability, scores.threshold, scores.grow_threshold, excluded
        )
        return set_flags(doc.blocks, short_block_decisions(content, scores.long).tolist())


def extractor(model_dir: str | None, variant: str | None) -> Extractor:
    """The default chain on ``model_dir``'s model, its labeler the variant's (None: as
    shipped)."""
    if variant is None:
        labeler: BoostedLabeler = BoostedLabeler(model_dir)
    else:
        centre, outside = map(float, variant.split(":"))
        labeler = ContainerLabeler(model_dir, centre, outside)
    chain: Chain = labeler_chain(labeler, "boosted", True, None, True, True, DominantBlock(labeler))
    return Extractor(chain, "boosted")


def runner(model_dir: str | None, variant: str | None) -> Runner:
    ex = extractor(model_dir, variant)
    return Runner(variant or "shipped", "ours", lambda html, url, lang: ex.extract(html, url).text)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", type=Path, default=DATA)
    parser.add_argument("--folds-dir", type=Path, default=OUT / "boosted")
    parser.add_argument("--folds", type=int, default=4)
    parser.add_argument("--variants", default="0.5:0.7,0.5:0.8,0.5:0.9,0.3:0.8")
    parser.add_argument("--unseen", action="store_true")
    parser.add_argument("--skip-cv", action="store_true")
    args = parser.parse_args(argv)
    variants: list[str | None] = [None, *args.variants.split(",")]
    if not args.skip_cv:
        print("cross-validated by site (the fold models of benchmarks.grouped_cv)")
        means = {v: [] for v in variants}
        for name in SHIPPED_TRAINING_SETS:
            base = open_dataset(args.data / name)
            results = {v: RunnerResult(v or "shipped", "ours", None) for v in variants}
            for fold in range(args.folds):
                model_dir = str(args.folds_dir / f"fold{fold}")
                runners = {v: runner(model_dir, v) for v in variants}
                for page in FoldPages(base, fold, args.folds).iter_pages():
                    for v in variants:
                        results[v].pages.append(run_page(runners[v], page, "auto"))
            row = []
            for v in variants:
                results[v].finish(n_bootstrap=0)
                f1 = (results[v].shingles or results[v].snippets).f1
                means[v].append(f1)
                row.append(f"{v or 'shipped'} {f1:.4f}")
            print(f"{name:22s} " + "  ".join(row), flush=True)
        print(
            "mean                   "
            + "  ".join(f"{v or 'shipped'} {np.mean(means[v]):.4f}" for v in variants)
        )
    if args.unseen:
        print("unseen sets (the shipped model)")
        means = {v: [] for v in variants}
        runners = {v: runner(None, v) for v in variants}
        for name in UNSEEN:
            dataset = open_dataset(args.data / name)
            results = {v: RunnerResult(v or "shipped", "ours", None) for v in variants}
            for page in dataset.iter_pages():
                for v in variants:
                    results[v].pages.append(run_page(runners[v], page, "auto"))
            row = []
            for v in variants:
                results[v].finish(n_bootstrap=0)
                f1 = results[v].shingles.f1
                means[v].append(f1)
                row.append(f"{v or 'shipped'} {f1:.4f}")
            print(f"{name:22s} " + "  ".join(row), flush=True)
        print(
            "mean                   "
            + "  ".join(f"{v or 'shipped'} {np.mean(means[v]):.4f}" for v in variants)
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
