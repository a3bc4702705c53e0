#!/usr/bin/env python
"""Do columns that place each block relative to the page's own summary help the default labeler?

    python -m benchmarks.boosted_description [--unseen] [--seed N]
    python -m benchmarks.boosted_description --time

A page's ``<meta name="description">`` (or ``og:description``, ``twitter:description``)
is written by its site, usually from the story's first paragraph or its standfirst. The
block that holds most of the description's words is then the story's beginning: on the
first 300 pages of dragnet-test, 155 have such a block (at least 60 % of the
description's words of five or more) and 148 of those blocks are content; on l3s-gn1 75
of 77; on wcxb-dev 94 of 129 (its references leave out standfirsts more often). Where
``boosted`` finds nothing or keeps the wrong text, the story is often a short post that
such a block marks. Columns, per block (words: lower-cased ``\\w+`` runs, a run of CJK
characters as its character pairs):

- ``desc_block_share``: the share of the block's words found in the description;
- ``desc_covered``: the share of the description's words found in the block;
- ``desc_found``, ``desc_after``, ``desc_words_between``, ``desc_in_parent``,
  ``desc_in_grandparent``: where the block stands relative to the anchor, the first
  block holding the most of the description's words (at least 60 %)
  (``benchmarks.boosted_title.anchor_columns``).

Scored with ``benchmarks.boosted_static``'s harness (folds by site on the four training
sets; ``--unseen``: the six sets no model trains on; ``--seed``: LightGBM's, since a
variant is judged against the spread of refits). An experiment, not in the package;
output in ``benchmarks/out/boosted_description/``; needs the ``[train]`` extra.
"""

from __future__ import annotations

import sys
from typing import Any

import numpy as np

from benchmarks.boosted_static import column_experiment
from benchmarks.boosted_title import ANCHOR_COLUMNS, anchor_columns
from benchmarks.grouped_cv import ROOT
from scrapy_boilerplate.neural.summary import MIN_COVERED, MIN_TERMS, page_summary, summary_terms

OUT = ROOT / "benchmarks" / "out" / "boosted_description"

COLUMNS = ["desc_block_share", "desc_covered", *(f"desc_{name}" for name in ANCHOR_COLUMNS)]


def terms_of(text: str | None) -> list[str]:
    """The text's terms (:func:`~scrapy_boilerplate.neural.summary.summary_terms`, which
    the default labeler's summary seed took from this script): words, each run of CJK
    characters as its character pairs; none for None."""
    return summary_terms(text) if text else []


#: a description shorter than this many distinct words anchors nothing
MIN_DESCRIPTION_WORDS = MIN_TERMS
#: the page's description (the package's reading, as the summary seed's)
page_description = page_summary


def description_columns(doc: Any) -> np.ndarray:
    """The ``n x len(COLUMNS)`` columns of a Document's blocks (see the module docstring)."""
    blocks = doc.blocks
    n = len(blocks)
    out = np.zeros((n, len(COLUMNS)), dtype=np.float64)
    if n == 0:
        return out
    described = set(terms_of(page_description(doc.root)))
    words = np.zeros(n, dtype=np.float64)
    for i, block in enumerate(blocks):
        own = terms_of(block.text)
        words[i] = len(own)
        if own and described:
            out[i, 0] = sum(w in described for w in own) / len(own)
            out[i, 1] = len(described.intersection(own)) / len(described)
    h = -1
    if len(described) >= MIN_DESCRIPTION_WORDS and out[:, 1].max() >= MIN_COVERED:
        h = int(np.argmax(out[:, 1]))
    out[:, 2:] = anchor_columns(doc, words, h)
    return out


def main(argv: list[str] | None = None) -> int:
    description = __doc__.split("\n\n")[0]
    return column_experiment(
        argv, description, OUT, COLUMNS, description_columns, "boosted + the description columns"
    )


if __name__ == "__main__":
    sys.exit(main())
