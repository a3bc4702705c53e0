#!/usr/bin/env python
"""Do columns that say what kind of page it is help the default labeler (``boosted``)?

    python -m benchmarks.boosted_page_kind [--unseen] [--seed N]
    python -m benchmarks.boosted_page_kind --time

An ablation of the labeler's column groups (``benchmarks.boosted_params --drop``) found
the page-level ones among those it can least do without: Web2Text's 20 ``root_``
columns (the whole page's text statistics, the same on every block of a page) cost
0.007 of the training sets' mean when held out, more than any group of blocks' own.
What the trees do not see is the kind of page: an article, a forum thread, a list of
teasers. These columns, the same on every block of a page, describe it:

- ``page_declares_article``: the page names itself an article (``og:type`` article, or a
  JSON-LD ``@type`` ending in ``Article``, ``BlogPosting`` or ``Report``);
- ``page_declares_discussion``: a forum thread or a question and its answers (the
  comment filter's test, :func:`~scrapy_boilerplate.filters.comments.declares_discussion`);
- ``page_log_h1``: log(1 + the ``<h1>`` elements);
- the share of the page's words in blocks that read like text (10 words or more, at
  most a third linked), in blocks inside an ``<article>`` element, under an ancestor of
  a comment class, in list items, in ``<p>`` blocks, and in its longest block.

The harness is ``benchmarks.boosted_static``'s (the folds of every ``boosted`` choice;
``--unseen``: the six unseen sets, scored by a model on all training pages; ``--seed``:
LightGBM's). Compare with ``python -m benchmarks.grouped_cv --seed N``. Not part of the
package. Output in ``benchmarks/out/boosted_page_kind/``; the ``[train]`` extra.
"""

from __future__ import annotations

import re
import sys
from typing import Any

import numpy as np

from benchmarks.boosted_static import column_experiment
from benchmarks.grouped_cv import ROOT
from scrapy_boilerplate.filters.comments import declares_discussion, json_ld_declares
from scrapy_boilerplate.neural import boosted_features as features_module
from scrapy_boilerplate.neural.boosted_features import BOOSTED_FEATURES, TEXT_LIKE_WORDS

OUT = ROOT / "benchmarks" / "out" / "boosted_page_kind"

COLUMNS = [
    "page_declares_article",
    "page_declares_discussion",
    "page_log_h1",
    "page_text_like_share",
    "page_article_share",
    "page_comment_share",
    "page_list_share",
    "page_p_share",
    "page_longest_share",
]

_ARTICLE_TYPE = re.compile(r'"@type"\s*:\s*\[?\s*"(?:\w*Article|BlogPosting|Report)"')
_COLUMN = {
    name: BOOSTED_FEATURES.index(name)
    for name in ("anc_tag_article", "anc_class_comment", "label_li", "tag_p")
}


def og_type_starts(root: Any, kind: str) -> bool:
    """Whether a ``<meta>`` ``og:type`` of the page (by ``property`` or ``name``) starts
    with ``kind`` (``"article"``, ``"product"``; case and spaces aside)."""
    for meta in root.iter("meta"):
        if (meta.get("property") or meta.get("name") or "").strip().lower() == "og:type":
            if (meta.get("content") or "").strip().lower().startswith(kind):
                return True
    return False


def declares_article(root: Any) -> bool:
    """Whether the page names itself an article: ``og:type`` article, or a JSON-LD
    ``@type`` ending in ``Article``, ``BlogPosting`` or ``Report`` (the first
    ``MAX_DECLARATIONS`` scripts)."""
    if root is None:
        return False
    return og_type_starts(root, "article") or json_ld_declares(root, _ARTICLE_TYPE)


def page_kind_columns(doc: Any, own: np.ndarray | None = None) -> np.ndarray:
    """The ``n x len(COLUMNS)`` columns of a page's blocks (the same on every row).
    ``own``: the page's default features, where the caller has them already."""
    blocks = doc.blocks
    n = len(blocks)
    out = np.zeros((n, len(COLUMNS)), dtype=np.float64)
    if n == 0:
        return out
    if own is None:
        own = features_module.boosted_features(doc)
    words = np.array([b.num_words for b in blocks], dtype=np.float64)
    linked = np.array([b.num_words_in_anchor_text for b in blocks], dtype=np.float64)
    total = max(words.sum(), 1.0)
    text_like = (words >= TEXT_LIKE_WORDS) & (linked * 3 <= words)

    def share(mask: np.ndarray) -> float:
        return float(words[mask].sum() / total)

    root = getattr(doc, "root", None)
    out[:, 0] = declares_article(root)
    out[:, 1] = declares_discussion(root)
    out[:, 2] = np.log1p(sum(1 for _ in root.iter("h1"))) if root is not None else 0.0
    out[:, 3] = share(text_like)
    out[:, 4] = share(own[:, _COLUMN["anc_tag_article"]] > 0)
    out[:, 5] = share(own[:, _COLUMN["anc_class_comment"]] > 0)
    out[:, 6] = share(own[:, _COLUMN["label_li"]] > 0)
    out[:, 7] = share(own[:, _COLUMN["tag_p"]] > 0)
    out[:, 8] = words.max() / total
    return out


def main(argv: list[str] | None = None) -> int:
    description = __doc__.split("\n\n")[0]
    return column_experiment(
        argv, description, OUT, COLUMNS, page_kind_columns, "boosted + the page-kind columns"
    )


if __name__ == "__main__":
    sys.exit(main())
