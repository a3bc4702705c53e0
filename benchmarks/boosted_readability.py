#!/usr/bin/env python
"""Does Readability's choice of the article help the default labeler (``boosted``)?

    python -m benchmarks.boosted_readability [--unseen] [--seed N]
    python -m benchmarks.boosted_readability --time

readability-lxml is the best other library on four of the ten sets (cleaneval-train,
cleanportaleval, l3s-gn1, mozilla-readability), and its method differs from ours: it
scores paragraphs by their commas and length, hands the scores up to their parent and
grandparent, takes the best-scored element with its like siblings as the article. This
experiment asks what that whole-page decision is worth to the trees before any of it is
written into the package: readability-lxml itself runs on each page (the serialised
tree the labeler reads), and per block

- ``rd_inside``: 1 if the block's text (lower-cased, whitespace collapsed) appears in
  Readability's article text;
- ``rd_share``: the share of the block's words found among the article's words;
- ``rd_page_share``: the article's words over the page's block words (one value a page).

Scored with ``benchmarks.boosted_static``'s harness (folds by site on the four training
sets; ``--unseen``: the six sets no model trains on; ``--seed``: LightGBM's). Note that
mozilla-readability's references are Readability.js's own output, so its figure gains
by construction; the other three training sets and the unseen sets are the evidence. An
experiment, not in the package (readability-lxml is not a dependency); output in
``benchmarks/out/boosted_readability/``; needs the ``[train]`` and ``[bench]`` extras.
"""

from __future__ import annotations

import re
import sys
from typing import Any

import lxml.html
import numpy as np

from benchmarks.boosted_static import column_experiment
from benchmarks.grouped_cv import ROOT

OUT = ROOT / "benchmarks" / "out" / "boosted_readability"
COLUMNS = ["rd_inside", "rd_share", "rd_page_share"]
_SPACE = re.compile(r"\s+")
_WORD = re.compile(r"\w+")


def normalised(text: str) -> str:
    """Lower-cased, whitespace runs as one space, stripped."""
    return _SPACE.sub(" ", text).strip().lower()


def readability_text(root: Any) -> str:
    """The text of readability-lxml's article for a parsed page ('' when it fails)."""
    from readability import Document

    if root is None:
        return ""
    try:
        summary = Document(lxml.html.tostring(root, encoding="unicode")).summary()
        return lxml.html.fromstring(summary).text_content()
    except Exception:  # noqa: BLE001 (an experiment: a page readability rejects scores 0)
        return ""


def readability_columns(doc: Any) -> np.ndarray:
    """The ``n x 3`` columns of a Document's blocks (see the module docstring)."""
    if not doc.blocks:
        return np.zeros((0, len(COLUMNS)), dtype=np.float64)
    return article_columns(doc.blocks, readability_text(doc.root))


def article_columns(blocks: Any, article_text: str) -> np.ndarray:
    """The columns of ``blocks`` for an article whose text is ``article_text``."""
    out = np.zeros((len(blocks), len(COLUMNS)), dtype=np.float64)
    article = normalised(article_text)
    article_words = set(_WORD.findall(article))
    page_words = 0
    for i, block in enumerate(blocks):
        text = normalised(block.text)
        words = _WORD.findall(text)
        page_words += len(words)
        if text and text in article:
            out[i, 0] = 1.0
        if words:
            out[i, 1] = sum(w in article_words for w in words) / len(words)
    out[:, 2] = len(_WORD.findall(article)) / max(page_words, 1)
    return out


def main(argv: list[str] | None = None) -> int:
    description = __doc__.split("\n\n")[0]
    return column_experiment(
        argv, description, OUT, COLUMNS, readability_columns, "boosted + Readability's article"
    )


if __name__ == "__main__":
    sys.exit(main())
