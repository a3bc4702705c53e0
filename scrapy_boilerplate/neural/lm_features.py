"""The thesis's block inputs besides the text vector: position and enclosing tags.

- **Position** (thesis, "Подготовка данных" and "Архитектура модели"): a block's position
  is its index divided by the number of blocks of the page; its sinusoidal encoding
  (Vaswani et al.), ``PE(pos, 2i) = sin(pos / 10000^(2i/d))``,
  ``PE(pos, 2i+1) = cos(pos / 10000^(2i/d))`` with ``d`` the text vector's width, is
  *added* to the text vector.
- **Tags**: the block's enclosing elements, from the element holding its first text up to
  the root, one-hot encoded over the 50 tags most frequent in the training pages and
  summed (a tag met three times counts 3); this vector is *appended*.

Both passes are linear in the page: an element's tag counts are its parent's plus its own
tag, computed once per element (a DOM nested 100,000 deep costs one walk, not one per
block).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np

__all__ = [
    "TAG_VOCABULARY_SIZE",
    "ancestor_tags",
    "block_positions",
    "positional_encoding",
    "tag_counts",
    "tag_vocabulary",
]

#: the thesis keeps the 50 most frequent tags
TAG_VOCABULARY_SIZE = 50


def positional_encoding(positions: np.ndarray, width: int) -> np.ndarray:
    """The sinusoidal encoding (len(positions) x width, float32) of each position."""
    pos = np.asarray(positions, np.float64)[:, None]
    i = np.arange(width // 2 + width % 2, dtype=np.float64)[None, :]
    angle = pos / np.power(10000.0, 2.0 * i / width)
    out = np.empty((len(pos), width), np.float64)
    out[:, 0::2] = np.sin(angle)
    out[:, 1::2] = np.cos(angle[:, : width // 2])
    return out.astype(np.float32)


def block_positions(n: int) -> np.ndarray:
    """The thesis's position of each of a page's ``n`` blocks: index / n."""
    return np.arange(n, dtype=np.float64) / max(n, 1)


def _tag(el: Any) -> str | None:
    tag = el.tag
    return tag.lower() if isinstance(tag, str) else None  # comments, PIs: no tag


def _first_element(block: Any) -> Any:
    elements = getattr(block, "elements", None)
    return elements[0] if elements else None


def ancestor_tags(block: Any) -> list[str]:
    """The tags from a block's first element up to the root (for counting a vocabulary;
    one walk per block: use :func:`tag_counts` for a page's features)."""
    el = _first_element(block)
    out: list[str] = []
    while el is not None:
        tag = _tag(el)
        if tag is not None:
            out.append(tag)
        el = el.getparent()
    return out


def tag_vocabulary(chains: Iterable[Sequence[str]], size: int = TAG_VOCABULARY_SIZE) -> list[str]:
    """The ``size`` tags met most often in the chains (ties by name, so it is stable)."""
    counts: Counter[str] = Counter()
    for chain in chains:
        counts.update(chain)
    ranked = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))
    return [tag for tag, _ in ranked[:size]]


def tag_counts(blocks: Sequence[Any], vocabulary: Sequence[str]) -> np.ndarray:
    """Per block, how often each vocabulary tag encloses it (len(blocks) x len(vocabulary),
    float32); each element's counts are computed once, from its parent's."""
    column = {tag: i for i, tag in enumerate(vocabulary)}
    width = len(vocabulary)
    memo: dict[Any, np.ndarray] = {}  # element -> counts (the key keeps the proxy alive)
    zero = np.zeros(width, np.float32)
    out = np.zeros((len(blocks), width), np.float32)
    for row, block in enumerate(blocks):
        first = el = _first_element(block)
        if first is None:
            continue
        counts = memo.get(el)
        if counts is None:
            path: list[Any] = []
            while el is not None and el not in memo:
                path.append(el)
                el = el.getparent()
            counts = memo[el] if el is not None else zero
            for node in reversed(path):
                tag = node.tag
                j = column.get(tag.lower()) if isinstance(tag, str) else None
                if j is not None:
                    counts = counts.copy()
                    counts[j] += 1
                memo[node] = counts  # shared with the parent when the tag is not counted
        out[row] = counts
    return out
