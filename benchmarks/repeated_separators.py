#!/usr/bin/env python
"""Decoding with runs cut at a repeated short text: a stream of teasers is separated by
the same few words item after item, a story's paragraphs are not.

    python -m benchmarks.grouped_cv --model boosted        # the fold models, first
    python -m benchmarks.repeated_separators [--variants 3,5] [--unseen]

Where the default keeps too much on a news page, the extra text is often a stream of
other stories after the story: a headline, a lead of 20 to 60 words, then the same short
texts on every item (Yahoo's "Good Morning America", "Save", "More like this"; a
gallery's "GETTY IMAGES" after each caption). The runs decoding reads only the blocks
of more than four words, so the leads, which the trees doubt (0.4 to 0.55), join the
story's run over those separators. This variant cuts a run between two consecutive
tree-decided blocks where a short block between them (one the neighbour rule decides)
holds a text that ``K`` or more blocks of the page hold (compared without case and
surrounding space); each part is then content only if it holds a sure block of its own.
A story cut by a repeated "Advertisement" keeps its parts that hold a sure paragraph.
Everything else decodes as shipped (short blocks, footers, rescues, the summary seed).

Scored as every ``boosted`` choice: the training sets cross-validated by site (each
fold's pages by the model of ``benchmarks.grouped_cv`` that never saw their site), then
(``--unseen``) the shipped model on the six sets no model trained on. An experiment that
does not ship. Not a test: nothing is asserted.
"""

from __future__ import annotations

import sys
from collections import Counter
from typing import Any

import numpy as np

from scrapy_boilerplate.neural.boosted import BlockScores

from .boosted_variants import DecodingLabeler, decoding_main, runs_cut_at


def repeated_separator_breaks(
    texts: list[str], long: np.ndarray, rows: np.ndarray, k: int
) -> np.ndarray:
    """Per pair of consecutive ``rows`` (the tree-decided blocks, in page order) whether a
    short block (not ``long``) between them holds a text that ``k`` or more of the
    page's blocks hold."""
    keys = [t.strip().casefold() for t in texts]
    counts = Counter(keys)
    repeated = np.fromiter(
        (bool(key) and counts[key] >= k for key in keys), dtype=bool, count=len(keys)
    )
    marks = np.cumsum(repeated & ~long)  # repeated short blocks up to each block
    if len(rows) < 2:
        return np.zeros(0, dtype=bool)
    return marks[rows[1:] - 1] > marks[rows[:-1]]


class RepeatedSeparatorLabeler(DecodingLabeler):
    """The boosted labeler, its runs cut at short texts repeated ``K`` times (the
    variant: ``K``)."""

    @classmethod
    def parse(cls, variant: str) -> int:
        k = int(variant)
        if k < 2:
            raise ValueError(f"a text repeats at least twice, not {k}")
        return k

    def decisions(self, doc: Any, scores: BlockScores) -> np.ndarray:
        texts = [block.text for block in doc.blocks]
        breaks = repeated_separator_breaks(texts, scores.long, scores.rows, self.variant)
        return runs_cut_at(scores, breaks)


def main(argv: list[str] | None = None) -> int:
    return decoding_main(argv, __doc__.split("\n\n")[0], RepeatedSeparatorLabeler, "3,5")


if __name__ == "__main__":
    sys.exit(main())
