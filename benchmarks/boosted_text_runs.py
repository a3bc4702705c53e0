#!/usr/bin/env python
"""Do columns describing the stretch of unlinked text a block belongs to help the
default labeler?

    python -m benchmarks.boosted_text_runs [--unseen] [--seed N] [--variant links|layout]

A story is a long stretch of consecutive blocks of running text, interrupted by nothing
but a date, a caption or a heading; a sidebar's prose widget or a teaser's lead is a
short stretch between link lists. The trees see windows of fixed widths (2 to 25 blocks)
around a block and the DOM's containers, not the stretch itself, whose width is the
page's own. Columns, per block, of its stretch (the maximal run of consecutive blocks
none of which is mostly links, ``links``; ``layout`` also ends a stretch where two
neighbouring blocks meet only near the page's root):

- ``run_log_words``: log(1 + the stretch's unlinked words);
- ``run_share``: their share of the page's unlinked words;
- ``run_vs_top``: the stretch's words over the page's largest stretch's;
- ``run_is_top``: the block is in the page's largest stretch;
- ``run_log_blocks``: log(1 + the stretch's blocks).

A linked block (the stretches' boundary) gets zeros. Scored with
``benchmarks.boosted_static``'s harness (``--baseline``: without the columns). An
experiment, not in the package; output in ``benchmarks/out/boosted_text_runs/``; needs
the ``[train]`` extra.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

import numpy as np

from benchmarks.boosted_static import column_experiment
from benchmarks.grouped_cv import ROOT
from scrapy_boilerplate.neural import boosted_features as features_module

OUT = ROOT / "benchmarks" / "out" / "boosted_text_runs"

COLUMNS = ["run_log_words", "run_share", "run_vs_top", "run_is_top", "run_log_blocks"]

#: a block with more of its words in links than this ends a stretch
LINKED = 0.5
#: ``layout``: neighbours whose common ancestor holds this share of the page's text or
#: more, and lies more than four levels up, are in different stretches
ROOT_SHARE = 0.9

_OWN = features_module.boosted_features
_F = features_module.BOOSTED_FEATURES
_LINK = _F.index("link_density")
_SHARE = _F.index("prev_edge_common_ancestor_body_percentage")
_FAR = _F.index("prev_edge_tree_distance_more")


def run_columns(features: np.ndarray, words: np.ndarray, variant: str) -> np.ndarray:
    """The columns (module docstring) from a page's own features and words per block."""
    n = len(words)
    out = np.zeros((n, len(COLUMNS)), dtype=np.float64)
    if n == 0:
        return out
    link = features[:, _LINK].astype(np.float64)
    inside = link <= LINKED
    unlinked = words * (1.0 - link) * inside
    starts = np.ones(n, dtype=bool)
    starts[1:] = ~inside[:-1] | ~inside[1:]
    if variant == "layout":
        starts[1:] |= (features[1:, _SHARE] >= ROOT_SHARE) & (features[1:, _FAR] > 0)
    run_id = np.cumsum(starts) - 1
    run_words = np.bincount(run_id, weights=unlinked)
    run_blocks = np.bincount(run_id)
    total = unlinked.sum()
    top = run_words.max()
    per = run_words[run_id]
    out[:, 0] = np.log1p(per)
    out[:, 1] = per / total if total else 0.0
    out[:, 2] = per / top if top else 0.0
    out[:, 3] = (run_id == int(np.argmax(run_words))) & (top > 0)
    out[:, 4] = np.log1p(run_blocks[run_id])
    out[~inside] = 0.0
    return out


def make(variant: str):
    def text_runs(doc: Any) -> np.ndarray:
        blocks = doc.blocks
        words = np.array([b.num_words for b in blocks], dtype=np.float64)
        return run_columns(_OWN(doc), words, variant)

    return text_runs


def main(argv: list[str] | None = None) -> int:
    variants = argparse.ArgumentParser(add_help=False)
    variants.add_argument("--variant", choices=("links", "layout"), default="links")
    known, rest = variants.parse_known_args(argv)
    variant = known.variant
    return column_experiment(
        rest,
        __doc__.split("\n\n")[0],
        OUT / variant,
        COLUMNS,
        make(variant),
        f"boosted + the text-run columns ({variant})",
    )


if __name__ == "__main__":
    sys.exit(main())
