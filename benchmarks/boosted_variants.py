#!/usr/bin/env python
"""The default extractor's options side by side, on the fold models and the unseen sets.

    python -m benchmarks.grouped_cv --model boosted        # the fold models, first
    python -m benchmarks.boosted_variants --variant '{"drop_footers": false}' [--unseen]

Each ``--variant`` is a JSON object of :func:`scrapy_boilerplate.neural.boosted.boosted`
arguments (decoding options: thresholds, ``favor``, ``drop_footers``, the rescues); the
shipped options run beside them. Scored as every ``boosted`` choice: the four training
sets cross-validated by site (each fold's pages extracted with the model of
``benchmarks.grouped_cv`` that never saw their site; token F1, snippet F1 for
trafilatura-eval), then (``--unseen``) the shipped model on the six sets no model
trained on. Paired: every variant reads the same pages with the same trees, so
differences far below the noise of a refit show. Not a test: nothing is asserted.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

import numpy as np

from scrapy_boilerplate.evaluation.datasets import Dataset, open_dataset
from scrapy_boilerplate.evaluation.evaluate import RunnerResult, run_page
from scrapy_boilerplate.evaluation.runners import chain_runner
from scrapy_boilerplate.training.dataset import EVALUATION_ONLY_SETS, SHIPPED_TRAINING_SETS

from .grouped_cv import OUT, FoldPages

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT.parent / "shared" / "data"


def score(pages: list[tuple[Any, Any]]) -> float:
    """The set's F1 of (runner, page) pairs, as the evaluate command computes it."""
    result = RunnerResult("variant", "ours", None)
    result.pages.extend(run_page(runner, page, "auto") for runner, page in pages)
    result.finish(n_bootstrap=0)
    return (result.shingles or result.snippets).f1


def print_row(name: str, figures: list[float], labels: list[str]) -> None:
    cells = "  ".join(
        f"{label} {f:.4f} ({f - figures[0]:+.4f})" for label, f in zip(labels, figures, strict=True)
    )
    print(f"{name:22s} {cells}", flush=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", type=Path, default=DATA)
    parser.add_argument("--folds-dir", type=Path, default=OUT / "boosted")
    parser.add_argument("--folds", type=int, default=4)
    parser.add_argument("--variant", action="append", type=json.loads, default=[])
    parser.add_argument("--unseen", action="store_true")
    parser.add_argument("--skip-cv", action="store_true")
    args = parser.parse_args(argv)
    variants: list[dict[str, Any]] = [{}, *args.variant]
    labels = ["shipped"] + [json.dumps(v, sort_keys=True) for v in args.variant]
    groups: list[tuple[str, list[str], Any]] = []
    if not args.skip_cv:
        groups.append(("cross-validated by site", list(SHIPPED_TRAINING_SETS), "folds"))
    if args.unseen:
        groups.append(("unseen sets (the shipped model)", sorted(EVALUATION_ONLY_SETS), None))
    for title, names, folds in groups:
        print(title)
        means: list[list[float]] = []
        for name in names:
            base = open_dataset(args.data / name)
            parts: list[tuple[Dataset, str | None]] = (
                [
                    (FoldPages(base, k, args.folds), str(args.folds_dir / f"fold{k}"))
                    for k in range(args.folds)
                ]
                if folds
                else [(base, None)]
            )
            figures = []
            for variant in variants:
                pairs = []
                for pages, model_dir in parts:
                    options = dict(variant, **({"model_dir": model_dir} if model_dir else {}))
                    runner = chain_runner([{"boosted": options}], "boosted")
                    pairs.extend((runner, page) for page in pages.iter_pages())
                figures.append(score(pairs))
            means.append(figures)
            print_row(name, figures, labels)
        print_row("mean", list(np.mean(means, axis=0)), labels)
    return 0


if __name__ == "__main__":
    sys.exit(main())
