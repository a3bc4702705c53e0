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

import re
import sys
from typing import Any

import numpy as np

from benchmarks.boosted_static import column_experiment
from benchmarks.boosted_title import ANCHOR_COLUMNS, anchor_columns, words_of
from benchmarks.grouped_cv import ROOT

OUT = ROOT / "benchmarks" / "out" / "boosted_description"

COLUMNS = ["desc_block_share", "desc_covered", *(f"desc_{name}" for name in ANCHOR_COLUMNS)]

#: Han, kana and Hangul: scripts written without spaces between words
_CJK_RUN = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff]+")


def terms_of(text: str | None) -> list[str]:
    """The text's words (:func:`~benchmarks.boosted_title.words_of`), each run of CJK
    characters in it as its character pairs (one character alone: itself): a Chinese
    sentence is one ``\\w+`` run, and its description would match no block's."""
    terms: list[str] = []
    for word in words_of(text):
        pieces = _CJK_RUN.split(word)
        terms.extend(piece for piece in pieces if piece)
        for run in _CJK_RUN.findall(word):
            terms.extend([run] if len(run) == 1 else [run[i : i + 2] for i in range(len(run) - 1)])
    return terms


#: the meta elements read, in order of preference (``name`` or ``property``)
DESCRIPTION_KEYS = ("description", "og:description", "twitter:description")
#: a description shorter than this many distinct words anchors nothing
MIN_DESCRIPTION_WORDS = 5
#: the share of the description's words the anchor block must hold
MIN_COVERED = 0.6


def page_description(root: Any) -> str | None:
    """The page's description: the first non-empty of :data:`DESCRIPTION_KEYS`."""
    if root is None:
        return None
    found: dict[str, str] = {}
    for meta in root.iter("meta"):
        key = (meta.get("name") or meta.get("property") or "").strip().lower()
        content = (meta.get("content") or "").strip()
        if key in DESCRIPTION_KEYS and content and key not in found:
            found[key] = content
    return next((found[key] for key in DESCRIPTION_KEYS if key in found), None)


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
