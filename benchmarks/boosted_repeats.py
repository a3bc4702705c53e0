#!/usr/bin/env python
"""Do columns that tell a teaser stream from an article help the default labeler?

    python -m benchmarks.boosted_repeats [--unseen]
    python -m benchmarks.boosted_repeats --time

Where ``boosted`` keeps too much, the extra text is often a stream of other stories: a
linked headline and a lead of 20 to 60 unlinked words, repeated item after item
(Yahoo's and the Independent's streams in mozilla-readability, "most popular" lists in
dragnet-test, teaser lists in l3s-gn1). Each lead reads like text, and the runs decoding
joins it to the story when the trees put it at 0.4 or more. What tells the two apart is
structure: an article's paragraphs share one element (their class path, and their
collapsed parent), a stream's leads share a class path across many items, each in a
parent of its own that also holds a headline link. Columns, per block (its class path
and collapsed parent from Web2Text's collapsed DOM):

- ``path_blocks``: log(1 + blocks with the block's class path);
- ``path_parents``: log(1 + distinct collapsed parents among them);
- ``path_same_parent``: the share of them in the block's own parent;
- ``parent_link_share``: the share of linked words in the block's parent;
- ``parent_linked_blocks``: log(1 + blocks in the parent at least half linked);
- ``parent_blocks``: log(1 + blocks in the parent).

Measured as every ``boosted`` choice was (``benchmarks.boosted_static``'s harness:
token F1 cross-validated by site on the four training sets, and with ``--unseen`` a
model trained on all of them scored on the six unseen sets). An experiment: the package
keeps its own columns. Writes ``benchmarks/out/boosted_repeats/``. Needs ``[train]``.
"""

from __future__ import annotations

import sys
from typing import Any

import numpy as np

from benchmarks.boosted_static import column_experiment
from benchmarks.grouped_cv import ROOT
from scrapy_boilerplate.neural.structure import Structure

OUT = ROOT / "benchmarks" / "out" / "boosted_repeats"

COLUMNS = [
    "path_blocks",
    "path_parents",
    "path_same_parent",
    "parent_link_share",
    "parent_linked_blocks",
    "parent_blocks",
]


def repeat_columns(doc: Any) -> np.ndarray:
    """The ``n x len(COLUMNS)`` columns of a Document's blocks (see the module docstring)."""
    blocks = doc.blocks
    n = len(blocks)
    out = np.zeros((n, len(COLUMNS)), dtype=np.float64)
    if n == 0:
        return out
    s = Structure(blocks, getattr(doc, "root", None))
    words = np.array([b.num_words for b in blocks], dtype=np.float64)
    linked = np.array([b.num_words_in_anchor_text for b in blocks], dtype=np.float64)
    mostly_linked = (linked * 2 >= words) & (words > 0)
    path = np.unique(np.asarray(s.class_path, dtype=np.int64), return_inverse=True)[1]
    parent = np.asarray(s.parent, dtype=np.int64)
    path_count = np.bincount(path)
    pairs, pair_of = np.unique(np.stack([path, parent]), axis=1, return_inverse=True)
    pair_of = pair_of.reshape(-1)
    parents_per_path = np.bincount(pairs[0], minlength=len(path_count))
    pair_count = np.bincount(pair_of)
    out[:, 0] = np.log1p(path_count[path])
    out[:, 1] = np.log1p(parents_per_path[path])
    out[:, 2] = pair_count[pair_of] / path_count[path]
    # the parent's blocks first..last (no parent: the page)
    node_first = np.asarray(s.node_first, dtype=np.int64)
    node_last = np.asarray(s.node_last, dtype=np.int64) + 1
    has = parent >= 0
    first = np.where(has, node_first[np.where(has, parent, 0)], 0)
    last = np.where(has, node_last[np.where(has, parent, 0)], n)
    cw = np.concatenate([[0.0], np.cumsum(words)])
    cl = np.concatenate([[0.0], np.cumsum(linked)])
    cm = np.concatenate([[0.0], np.cumsum(mostly_linked)])
    out[:, 3] = (cl[last] - cl[first]) / np.maximum(cw[last] - cw[first], 1.0)
    out[:, 4] = np.log1p(cm[last] - cm[first])
    out[:, 5] = np.log1p(last - first)
    return out


def main(argv: list[str] | None = None) -> int:
    description = __doc__.split("\n\n")[0]
    return column_experiment(
        argv, description, OUT, COLUMNS, repeat_columns, "boosted + the repeated-structure columns"
    )


if __name__ == "__main__":
    sys.exit(main())
