#!/usr/bin/env python
"""Does training on copies of the pages in older markup help the default labeler?

    python -m benchmarks.boosted_aged_markup [--unseen]

The sets that may train the shipped model are modern pages (WCXB 2025-26, Readability's
and trafilatura's test pages); the six sets it never trains on are news pages of 2005-2017,
written before HTML5's sectioning elements. The trees read those elements (a block inside
``<article>``, ``<nav>``, ``<footer>``, ...); on a modern page, being outside the
``<article>`` says boilerplate, on an old page nothing is inside one. This experiment
adds to the training data a copy of every page with its HTML5 sectioning and figure
elements renamed to ``div`` (``time`` and ``mark`` to ``span``): the same text, the same
labels, only the markup of a page of 2008. Measured as every ``boosted`` choice was
(``benchmarks.grouped_cv``'s folds, a page's copy in its page's fold; only the original
pages are scored), and with ``--unseen`` a model trained on all of them scored on the six
unseen sets. An experiment: the package trains on the pages as they are. Writes
``benchmarks/out/boosted_aged_markup/``. Needs the ``[train]`` extra.
"""

from __future__ import annotations

import re
import sys

from benchmarks.grouped_cv import ROOT
from benchmarks.training_copies import copy_experiment

OUT = ROOT / "benchmarks" / "out" / "boosted_aged_markup"
#: the suffix of a copy's page id
AGED = "#aged"

_BLOCK_TAGS = "article|section|nav|aside|header|footer|main|figure|figcaption|hgroup"
_BLOCK_RE = re.compile(rf"<(/?)(?:{_BLOCK_TAGS})(?=[\s/>])", re.IGNORECASE)
_INLINE_RE = re.compile(r"<(/?)(?:time|mark)(?=[\s/>])", re.IGNORECASE)


def aged(html: str) -> str:
    """``html`` with HTML5's sectioning and figure elements as ``div`` and ``time`` /
    ``mark`` as ``span`` (one regex pass each: linear in the page)."""
    return _INLINE_RE.sub(r"<\1span", _BLOCK_RE.sub(r"<\1div", html))


def aged_copy(page_id: str, html: str, main_text: str | None) -> tuple[str, str | None] | None:
    """A page's copy in old markup (same reference), None when the markup does not change."""
    old = aged(html)
    return None if old == html else (old, main_text)


def main(argv: list[str] | None = None) -> int:
    description = __doc__.split("\n\n")[0]
    return copy_experiment(argv, description, OUT, aged_copy, AGED, "aged copies")


if __name__ == "__main__":
    sys.exit(main())
