#!/usr/bin/env python
"""Do columns that place a block against its own page's blocks help the default labeler?

    python -m benchmarks.boosted_relative [--unseen] [--seed N]

The trees read a block's length, link density and text density as absolute values, and
the page's as a few totals. What reads as a story's paragraph differs from page to page
and from one decade of markup to the next (a 2008 page puts a story in a few long
blocks, a 2024 one in many short ones); a block's place among its own page's blocks does
not. Columns, per block:

- ``rel_words_max``: its words over the page's longest block's;
- ``rel_words_rank``: log(1 + its rank by words among the page's blocks, longest first);
- ``rel_words_p90``: log(1 + words) less log(1 + the 90th percentile of the words of
  the page's blocks that have any);
- ``rel_density_max``: its text density over the page's highest;
- ``rel_link_gap``: its link density less the page's (the share of all its words that
  are linked).

Scored with ``benchmarks.boosted_static``'s harness (``--baseline``: without the
columns). An experiment, not in the package; output in
``benchmarks/out/boosted_relative/``; needs the ``[train]`` extra.
"""

from __future__ import annotations

import sys
from typing import Any

import numpy as np

from benchmarks.boosted_static import column_experiment
from benchmarks.grouped_cv import ROOT

OUT = ROOT / "benchmarks" / "out" / "boosted_relative"
COLUMNS = [
    "rel_words_max",
    "rel_words_rank",
    "rel_words_p90",
    "rel_density_max",
    "rel_link_gap",
]


def relative_columns(doc: Any) -> np.ndarray:
    """The ``n x len(COLUMNS)`` columns of a Document's blocks (module docstring)."""
    blocks = doc.blocks
    n = len(blocks)
    out = np.zeros((n, len(COLUMNS)), dtype=np.float64)
    if not n:
        return out
    words = np.array([b.num_words for b in blocks], dtype=np.float64)
    linked = np.array([b.num_words_in_anchor_text for b in blocks], dtype=np.float64)
    density = np.array([b.text_density for b in blocks], dtype=np.float64)
    out[:, 0] = words / max(words.max(), 1.0)
    order = np.argsort(-words, kind="stable")
    rank = np.empty(n, dtype=np.float64)
    rank[order] = np.arange(n)
    out[:, 1] = np.log1p(rank)
    having = words[words > 0]
    p90 = float(np.percentile(having, 90)) if having.size else 0.0
    out[:, 2] = np.log1p(words) - np.log1p(p90)
    out[:, 3] = density / max(density.max(), 1e-9)
    page_link = linked.sum() / max(words.sum(), 1.0)
    out[:, 4] = linked / np.maximum(words, 1.0) - page_link
    return out


def main(argv: list[str] | None = None) -> int:
    return column_experiment(
        argv,
        __doc__.split("\n\n")[0],
        OUT,
        COLUMNS,
        relative_columns,
        "boosted + the page-relative columns",
    )


if __name__ == "__main__":
    sys.exit(main())
