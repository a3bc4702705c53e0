"""The Web2Text block features (128 per block) and edge features (25 per adjacent pair).

The layout follows algorithms.md 2.4-2.5 (the ECIR version of the reference code), computed
for *our* blocks (boilerpipe segmentation, :mod:`scrapy_boilerplate.parse`) instead of
Web2Text's collapsed-DOM leaves:

* **Leaf.** A block stands for the Web2Text leaf. Its DOM position is its *anchor*: the
  lowest common ancestor of the elements whose direct text is in the block
  (``TextBlock.elements``).
* **Collapsed DOM.** Web2Text merges every element that has a single non-empty child into
  that child (2.2). Here "children" are counted in blocks: walking up from a block's anchor,
  an ancestor holds the same number of blocks as the child below it exactly when all its
  text lies in that one child, so it is merged. The collapsed *parent* of a block is the
  deepest ancestor group holding at least two blocks, the *grandparent* the next group up
  (holding more blocks than the parent), the *root* the group holding every block. Node
  statistics (characters, words, punctuation, ...) are the sums over the blocks a node holds;
  a node's tag list is the tags of every element merged into it, top-down.
* Raw values are computed here; standardisation (z-scores with mean and standard deviation
  measured on our own training data, stored with the model) is applied by the model wrapper
  (:class:`Normalizer`). Binary columns stay +-1 (or 1/0 where the reference uses 1/0).

Quirks of the reference code, and what we do (algorithms.md 2.3-2.4):

* Integer divisions (n_same_class_path, avg_word_length, avg_sentence_length,
  body_percentage): **fixed**, real division, since the int/int versions are constant
  almost everywhere and carry no information.
* ASCII-only word split (Java ``\\W``): **fixed**. A word is a run of Unicode letters, marks,
  digits and ``_``; a Han, kana, Thai, Lao, Khmer or Myanmar character is a word of its own,
  so CJK statistics are per character.
* Case-sensitive stopwords: **fixed** (case-insensitive), and the list is our own, with
  "and" and "by", a few common German, French and Spanish function words, and single-
  character Chinese and Japanese function characters.
* The duplicated ``ul`` column among the parent tags: **fixed**; the second copy is
  ``nav`` (a strong boilerplate signal in today's HTML), so the count stays 128.
* avg_word_length is clipped to [1, 15] rather than [3, 15] (CJK words are one character).
* containsYear matches 1800-2099 rather than any four digits.
* relative_position uses character positions in the page's block text (we keep no source
  offsets); body_percentage is the node's share of the page's characters.
* nCharsInLink comes from the block's link density (share of its words inside ``<a>``).
* Sentence ends are ``.?!;`` + whitespace + an uppercase (or CJK) character, or one of
  ``。！？`` inside the text.

Everything is deterministic and finite for any input: empty pages give (0, 128) and
(0, 25) arrays, one-block pages (1, 128) and (0, 25).
"""

from __future__ import annotations

from collections import Counter
from operator import attrgetter
from typing import Any

import numpy as np

from .assemble import assemble
from .columns import EDGE_FEATURES, binary_masks, feature_names
from .structure import Structure
from .textstats import block_text_stats

__all__ = ["Normalizer", "page_features", "page_features_and_structure"]


_TEXT = attrgetter("text")
_LINK_DENSITY = attrgetter("link_density")


def page_features(doc: Any, extended: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """Raw block features (n x 128) and edge features ((n-1) x 25) of a Document, float32.

    With ``extended``, our extension columns follow (:data:`EXT_BLOCK_FEATURES`,
    :data:`EXT_EDGE_FEATURES`).

    ``doc`` needs ``blocks`` (TextBlocks with ``text``, ``link_density``, ``elements``)
    and ``root`` (the lxml root, may be None). Not standardised: see :class:`Normalizer`.
    """
    blocks, edges, _ = page_features_and_structure(doc, extended)
    return blocks, edges


def page_features_and_structure(
    doc: Any, extended: bool = False
) -> tuple[np.ndarray, np.ndarray, Structure | None]:
    """:func:`page_features`, and the collapsed DOM they were computed on (None for a page
    without blocks), for features built on top of them (:mod:`.boosted_features`)."""
    blocks = doc.blocks
    n = len(blocks)
    block_names, edge_names = feature_names(extended)
    if n == 0:
        return (
            np.zeros((0, len(block_names)), dtype=np.float32),
            np.zeros((0, len(edge_names)), dtype=np.float32),
            None,
        )
    texts = list(map(_TEXT, blocks))
    st = block_text_stats(texts, list(map(_LINK_DENSITY, blocks)))
    s = Structure(blocks, getattr(doc, "root", None))
    counts = Counter(texts)
    dup = np.fromiter(map(counts.__getitem__, texts), dtype=np.int64, count=n)
    paths = Counter(s.class_path)
    same_path = np.fromiter(map(paths.__getitem__, s.class_path), dtype=np.int64, count=n)
    return (*assemble(st, dup, same_path, s, extended), s)


class Normalizer:
    """Standardisation of the non-binary columns with means and standard deviations
    measured on the training data (stored with the model)."""

    def __init__(self, block_mean: Any, block_std: Any, edge_mean: Any, edge_std: Any) -> None:
        self.block_mean = np.asarray(block_mean, dtype=np.float32)
        self.block_std = np.asarray(block_std, dtype=np.float32)
        self.edge_mean = np.asarray(edge_mean, dtype=np.float32)
        self.edge_std = np.asarray(edge_std, dtype=np.float32)

    @classmethod
    def fit(cls, blocks: np.ndarray, edges: np.ndarray) -> Normalizer:
        """Means and standard deviations of the non-binary columns (binary: 0 and 1)."""
        # (told by the edges: an experiment may append its own block columns)
        binary_block, binary_edge = binary_masks(edges.shape[1] != len(EDGE_FEATURES))

        def stats(x: np.ndarray, binary: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
            x = np.asarray(x, dtype=np.float64)
            mean = x.mean(axis=0) if len(x) else np.zeros(x.shape[1])
            std = x.std(axis=0) if len(x) else np.ones(x.shape[1])
            std = np.where(std < 1e-6, 1.0, std)
            # columns after the known ones (an experiment's extra inputs) are standardised
            binary = np.pad(binary, (0, max(0, x.shape[1] - len(binary))))
            mean = np.where(binary, 0.0, mean)
            std = np.where(binary, 1.0, std)
            return mean, std

        bm, bs = stats(blocks, binary_block)
        em, es = stats(edges, binary_edge)
        return cls(bm, bs, em, es)

    def transform(self, blocks: np.ndarray, edges: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        b = ((blocks - self.block_mean) / self.block_std).astype(np.float32)
        e = ((edges - self.edge_mean) / self.edge_std).astype(np.float32)
        return b, e

    def to_dict(self) -> dict[str, list[float]]:
        return {
            "block_mean": [float(v) for v in self.block_mean],
            "block_std": [float(v) for v in self.block_std],
            "edge_mean": [float(v) for v in self.edge_mean],
            "edge_std": [float(v) for v in self.edge_std],
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Normalizer:
        return cls(data["block_mean"], data["block_std"], data["edge_mean"], data["edge_std"])


#: whether the compiled collapsed-DOM pass, keyword scan, character counts and feature
