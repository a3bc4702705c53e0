#!/usr/bin/env python
"""Do our own filters' decisions help the default labeler (``boosted``)?

    python -m benchmarks.boosted_filters [--extractors article,default,cetd] [--unseen]
    python -m benchmarks.boosted_filters --time

One direction the default-extractor issue names: per-block signals of our own filters as
columns of the trees. Each named extractor runs over a copy of the page's blocks (its
fusions merge blocks; a merged block's ``offset_start..offset_end`` names the blocks it
holds), and its decision, content or not, becomes one column per block. Measured as
every ``boosted`` choice was: token F1 cross-validated by site on the four sets that may
train the shipped model (``benchmarks.grouped_cv``'s folds and scoring), and with
``--unseen`` a model trained on all of them scored on the six sets no model trains on;
``--time`` says what the columns cost per wcxb-dev page. The columns reach the training
and the extractor as ``benchmarks.boosted_static``'s do (the package keeps its own).
Writes ``benchmarks/out/boosted_filters/<extractors>/``. Needs the ``[train]`` extra.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from benchmarks.boosted_static import column_cost, measure_with_columns, print_scores
from benchmarks.grouped_cv import DATA, ROOT
from scrapy_boilerplate import get_extractor

OUT = ROOT / "benchmarks" / "out" / "boosted_filters"


def decisions(names: list[str]) -> Callable[[Any], np.ndarray]:
    """``doc`` -> per block, 1 where each named extractor's chain keeps it (n x len(names))."""
    chains = [get_extractor(name).chain for name in names]

    def make(doc: Any) -> np.ndarray:
        n = len(doc.blocks)
        out = np.zeros((n, len(chains)), dtype=np.float32)
        for column, chain in enumerate(chains):
            copy = doc.copy()
            chain(copy)
            for block in copy.blocks:
                if block.is_content:
                    out[block.offset_start : block.offset_end + 1, column] = 1.0
        return out

    return make


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", type=Path, default=DATA)
    parser.add_argument("--out", type=Path, default=OUT)
    parser.add_argument("--extractors", default="article,default,cetd")
    parser.add_argument("--unseen", action="store_true", help="also score the six unseen sets")
    parser.add_argument("--time", action="store_true", help="only time the columns")
    parser.add_argument("--folds", type=int, default=4)
    parser.add_argument("--threads", type=int, default=2)
    args = parser.parse_args(argv)
    names = args.extractors.split(",")
    make = decisions(names)
    if args.time:
        for name, ms in column_cost(args, make).items():
            print(f"{name}: {ms:.2f} (median per wcxb-dev page, best of 3)")
        return 0
    columns = [f"{name}_content" for name in names]
    scores = measure_with_columns(args, columns, make, args.out / "+".join(names))
    print_scores(f"boosted + the decisions of {', '.join(names)}", scores)
    return 0


if __name__ == "__main__":
    sys.exit(main())
