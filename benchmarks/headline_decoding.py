#!/usr/bin/env python
"""Decoding with the page's headline: the first block the trees decide after the block
that repeats the page's title seeds a run of content.

    python -m benchmarks.grouped_cv --model boosted        # the fold models, first
    python -m benchmarks.headline_decoding [--unseen] [--folds-dir DIR]

The summary seed (``neural/summary.py``) lets the block holding the page's meta
description seed a run where the trees doubt it. The page's ``<title>`` is a second
signal of the same kind: the block that repeats it (or a part of it, preferably in a
heading: ``benchmarks.boosted_title``'s headline) stands right above the story, so the
first longer block after it is usually the story's first paragraph. Here that block
counts as a seed where the trees give it at least the summary seed's floor (0.2, not
tuned again). Everything else decodes as the default does (the summary seed included).

Scored as every ``boosted`` choice: the training sets cross-validated by site (each
fold's pages by the model of ``benchmarks.grouped_cv`` that never saw their site), then
(``--unseen``) the shipped model on the six sets no model trained on. An experiment that
does not ship. Not a test: nothing is asserted.
"""

from __future__ import annotations

import sys
from typing import Any

import numpy as np

from scrapy_boilerplate.neural.boosted import BoostedLabeler

from .boosted_title import HEADLINE_WORDS, headline_index, title_parts, words_of
from .boosted_variants import SeedingLabeler, compare, decoding_parser, labeler_runner


def headline(doc: Any) -> int:
    """The index of the block that repeats the page's title or a part of it (the first
    such in a heading element, else the first), or -1."""
    parts = title_parts(doc.title)
    if not parts:
        return -1
    candidates = [
        i
        for i, block in enumerate(doc.blocks)
        if block.num_words <= HEADLINE_WORDS and tuple(words_of(block.text)) in parts
    ]
    return headline_index(doc.blocks, np.array(candidates, dtype=np.int64))


class HeadlineLabeler(SeedingLabeler):
    """The default labeler, the first tree-decided block after the headline a seed at
    :data:`~scrapy_boilerplate.neural.boosted.SUMMARY_FLOOR` or more."""

    def seed_row(self, doc: Any, scores: Any) -> int:
        h = headline(doc)
        if h < 0:
            return -1
        row = int(np.searchsorted(scores.rows, h, side="right"))
        return row if row < len(scores.rows) else -1


def main(argv: list[str] | None = None) -> int:
    args = decoding_parser(__doc__.split("\n\n")[0]).parse_args(argv)
    runners = [
        labeler_runner(BoostedLabeler, "shipped"),
        labeler_runner(HeadlineLabeler, "headline seed"),
    ]
    labels = ["shipped", "headline seed"]
    compare(runners, labels, folds_dir=args.folds_dir, cv=not args.skip_cv, unseen=args.unseen)
    return 0


if __name__ == "__main__":
    sys.exit(main())
