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

import argparse
import sys
from pathlib import Path
from typing import Any

import numpy as np

from scrapy_boilerplate.evaluation.runners import Runner
from scrapy_boilerplate.extraction import Extractor
from scrapy_boilerplate.neural.boosted import SUMMARY_FLOOR, BoostedLabeler, DominantBlock
from scrapy_boilerplate.neural.filter import labeler_chain

from .boosted_title import HEADLINE_WORDS, headline_index, title_parts, words_of
from .boosted_variants import RunnerFor, compare
from .grouped_cv import OUT


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


class HeadlineLabeler(BoostedLabeler):
    """The default labeler, the first tree-decided block after the headline a seed at
    :data:`SUMMARY_FLOOR` or more."""

    def __call__(self, doc) -> bool:  # type: ignore[no-untyped-def]
        self.model()
        if not doc.blocks:
            return False
        scores = self.scored(doc)
        h = headline(doc)
        probability = scores.probability
        if h >= 0:
            j = int(np.searchsorted(scores.rows, h, side="right"))
            if j < len(scores.rows) and SUMMARY_FLOOR <= probability[j] < scores.threshold:
                probability = probability.copy()
                probability[j] = scores.threshold
        return scores._replace(probability=probability).decide(doc.blocks, scores.threshold)


def variant_runner(headline_seed: bool) -> RunnerFor:
    """The default chain, with the headline seed or without (as shipped)."""

    def runner_for(model_dir: str | None) -> Runner:
        cls = HeadlineLabeler if headline_seed else BoostedLabeler
        labeler = cls(model_dir)
        chain = labeler_chain(labeler, "boosted", True, None, True, True, DominantBlock(labeler))
        ex = Extractor(chain, "boosted")
        name = "headline seed" if headline_seed else "shipped"
        return Runner(name, "ours", lambda html, url, lang: ex.extract(html, url).text)

    return runner_for


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--unseen", action="store_true")
    parser.add_argument("--skip-cv", action="store_true")
    parser.add_argument(
        "--folds-dir", type=Path, default=OUT / "boosted", help="grouped_cv's fold models"
    )
    args = parser.parse_args(argv)
    runners = [variant_runner(False), variant_runner(True)]
    labels = ["shipped", "headline seed"]
    compare(runners, labels, folds_dir=args.folds_dir, cv=not args.skip_cv, unseen=args.unseen)
    return 0


if __name__ == "__main__":
    sys.exit(main())
