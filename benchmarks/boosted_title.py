#!/usr/bin/env python
"""Do columns that place each block relative to the page's headline help the default labeler?

    python -m benchmarks.boosted_title [--unseen]
    python -m benchmarks.boosted_title --time

Where ``boosted`` finds nothing, or keeps the comments or a sidebar instead, the story is
often a short post: a headline, a date, one or two lines under a photo or a video
(dragnet-test's blogs of 2012: 19 pages with no recall, against 9 for trafilatura). The
trees judge a block by its own text and its surroundings; a two-line post reads like a
caption. What tells the post apart is where it stands: right after the block that repeats
the page's ``<title>`` (or a part of it: "Food Wishes: Next Up: Pumpkin Pie" heads its
post with "Next Up: Pumpkin Pie"), inside the headline's container. Boilerpipe matches
blocks against the title (``DocumentTitleMatchClassifier``); the trees have no such
column. Columns, per block (words: lower-cased ``\\w+`` runs):

- ``title_exact``: the block's words are the title's, or those of a part of it (split at
  `` - ``, ``|``, ``»``, ``:``, ...);
- ``title_block_share``: the share of the block's words found in the title;
- ``title_covered``: the share of the title's words found in the block;
- ``headline_found``: the page has a headline block (the first exact match in a heading
  element, else the first exact match; without one, the same among the blocks of at most
  30 words that hold half of the title's words, nearly all of their own words in it);
- ``after_headline``: 1 after the headline, -1 before, 0 at it or on a page without one;
- ``headline_words_between``: log(1 + words between the headline and the block), signed
  as ``after_headline``;
- ``in_headline_parent``, ``in_headline_grandparent``: the block lies among the blocks of
  the headline's collapsed parent / grandparent (Web2Text's collapsed DOM).

The harness is ``benchmarks.boosted_static``'s (the folds of every ``boosted`` choice;
``--unseen``: the six unseen sets, scored by a model on all training pages; ``--seed``:
LightGBM's, so that the variant is compared over the seeds a refit's noise spans). Not
part of the package. Output in ``benchmarks/out/boosted_title/``; the ``[train]`` extra.
"""

from __future__ import annotations

import re
import sys
from typing import Any

import numpy as np

from benchmarks.boosted_static import column_experiment
from benchmarks.grouped_cv import ROOT
from scrapy_boilerplate.neural.structure import Structure

OUT = ROOT / "benchmarks" / "out" / "boosted_title"

COLUMNS = [
    "title_exact",
    "title_block_share",
    "title_covered",
    "headline_found",
    "after_headline",
    "headline_words_between",
    "in_headline_parent",
    "in_headline_grandparent",
]

_WORD_RE = re.compile(r"\w+")
#: where a title joins its parts (site name, section, headline)
_SEPARATOR_RE = re.compile(r"\s+[-:/]\s+|\s*[|»«·–—:]\s*")
#: the longest block that can be a headline
HEADLINE_WORDS = 30


def words_of(text: str | None) -> list[str]:
    """The lower-cased word runs of ``text`` (none for None)."""
    return _WORD_RE.findall(text.lower()) if text else []


def title_parts(title: str | None) -> set[tuple[str, ...]]:
    """The title's words and those of each of its parts, as tuples (no empty one)."""
    if not title:
        return set()
    parts = [title, *_SEPARATOR_RE.split(title)]
    return {tuple(words) for words in map(words_of, parts) if words}


_HEADINGS = frozenset(("h1", "h2", "h3", "h4", "h5", "h6"))


def in_heading(block: Any) -> bool:
    """The block's text sits in an ``<h1>``-``<h6>`` element (its own or a parent)."""
    for el in block.elements:
        parent = el.getparent()
        if el.tag in _HEADINGS or (parent is not None and parent.tag in _HEADINGS):
            return True
    return False


def headline_index(blocks: Any, candidates: np.ndarray) -> int:
    """The first of the ``candidates`` (block indices) set in a heading element, else the
    first of them; -1 if there are none. (A blog's name heads the page too, as a part of
    the title, but in a heading less often than the post's title.)"""
    for i in candidates:
        if in_heading(blocks[i]):
            return int(i)
    return int(candidates[0]) if candidates.size else -1


def title_columns(doc: Any) -> np.ndarray:
    """The ``n x len(COLUMNS)`` columns of a Document's blocks (see the module docstring)."""
    blocks = doc.blocks
    n = len(blocks)
    out = np.zeros((n, len(COLUMNS)), dtype=np.float64)
    if n == 0:
        return out
    parts = title_parts(doc.title)
    title_words = set(words_of(doc.title))
    words = np.zeros(n, dtype=np.float64)
    for i, block in enumerate(blocks):
        own = words_of(block.text)
        words[i] = len(own)
        if not own or not title_words:
            continue
        out[i, 0] = tuple(own) in parts
        # (only short blocks can repeat a title: longer ones are not looked up word by word)
        if len(own) <= HEADLINE_WORDS:
            found = [w in title_words for w in own]
            out[i, 1] = sum(found) / len(own)
            out[i, 2] = len(title_words.intersection(own)) / len(title_words)
    h = headline_index(blocks, np.flatnonzero(out[:, 0]))
    if h < 0:
        near = (out[:, 1] >= 0.9) & (out[:, 2] >= 0.5) & (words <= HEADLINE_WORDS)
        h = headline_index(blocks, np.flatnonzero(near))
    out[:, 3:] = anchor_columns(doc, words, h)
    return out


#: the columns :func:`anchor_columns` gives
ANCHOR_COLUMNS = ("found", "after", "words_between", "in_parent", "in_grandparent")


def anchor_columns(doc: Any, words: np.ndarray, h: int) -> np.ndarray:
    """Where each block stands relative to the anchor block ``h`` (-1: none; all zero):
    the page has one, 1 after it / -1 before / 0 at it, log(1 + words between) signed
    the same, inside the anchor's collapsed parent, grandparent."""
    n = len(words)
    out = np.zeros((n, len(ANCHOR_COLUMNS)), dtype=np.float64)
    if h < 0:
        return out
    out[:, 0] = 1.0
    index = np.arange(n)
    side = np.sign(index - h)
    out[:, 1] = side
    cw = np.concatenate([[0.0], np.cumsum(words)])
    between = np.where(index > h, cw[index] - cw[h + 1], cw[h] - cw[np.minimum(index + 1, h)])
    out[:, 2] = side * np.log1p(np.maximum(between, 0.0))
    s = Structure(doc.blocks, getattr(doc, "root", None))
    first = np.asarray(s.node_first, dtype=np.int64)
    last = np.asarray(s.node_last, dtype=np.int64)
    for column, node in ((3, s.parent[h]), (4, s.gp[h])):
        if node >= 0:
            out[first[node] : last[node] + 1, column] = 1.0
    return out


def main(argv: list[str] | None = None) -> int:
    description = __doc__.split("\n\n")[0]
    return column_experiment(
        argv, description, OUT, COLUMNS, title_columns, "boosted + the headline columns"
    )


if __name__ == "__main__":
    sys.exit(main())
