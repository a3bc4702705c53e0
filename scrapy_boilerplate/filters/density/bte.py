"""BTE: body text extraction (Finn, Kushmerick, Smyth 2001).

The body is a sequence of tokens, tags worth -1 and words +1; the content is the
contiguous range with the largest sum (words inside minus tags inside, which is Finn's
"tags before + words inside + tags after" up to a constant). We keep the tokens grouped in
runs (the tags between two text runs, the words of a text run) and find the range with
prefix sums in linear time; ties keep the earliest range, as the reference's O(R^2) loop
does (``docs/algorithms.md`` 3.4). Words: whitespace-separated, with every CJK character a
word of its own (Chinese and Japanese are written without spaces).
"""

from __future__ import annotations

import re

import numpy as np

from ...document import Document
from ...words import CJK_CHARACTERS
from ._dom import DensityFilter, DomStats, check_combine, label_runs

__all__ = ["BTEFilter", "bte_range", "bte_values", "count_words"]

_CJK = re.compile(f"[{CJK_CHARACTERS}]").search
_TOKENS = re.compile(f"[{CJK_CHARACTERS}]|[^\\s{CJK_CHARACTERS}]+").findall


def count_words(text: str) -> int:
    """Whitespace-separated words, every CJK character counting as one."""
    if _CJK(text) is None:
        return len(text.split())
    return len(_TOKENS(text))


def bte_values(stats: DomStats) -> tuple[np.ndarray, np.ndarray]:
    """The token runs in document order, -tags or +words each (zeros dropped), and for each
    the text run it comes from (-1 for tags)."""
    nruns = len(stats.run_text)
    lengths = stats.run_len.tolist()
    words = np.fromiter(
        (count_words(t) if n else 0 for t, n in zip(stats.run_text, lengths, strict=True)),
        dtype=np.int64,
        count=nruns,
    )
    values = np.empty(2 * nruns + 1, dtype=np.int64)
    values[0:-1:2] = -stats.run_tags  # the tags before each run
    values[1::2] = words  # the run's words
    values[-1] = -stats.tags_after
    origin = np.full(values.size, -1, dtype=np.intp)
    origin[1::2] = np.arange(nruns)
    keep = values != 0
    return values[keep], origin[keep]


def bte_range(values: np.ndarray) -> tuple[int, int] | None:
    """The range [i, j] of ``values`` with the largest sum (ties: the earliest start, then
    the earliest end), or None when no sum is positive. Linear, with prefix sums."""
    if values.size == 0:
        return None
    S = np.concatenate(([0], np.cumsum(values)))
    best = (S[1:] - np.minimum.accumulate(S[:-1])).max()  # best sum ending at each j
    if best <= 0:
        return None
    reach = np.maximum.accumulate(S[1:][::-1])[::-1]  # max of S[j + 1] over j >= i
    i = int(np.flatnonzero(reach - S[:-1] == best)[0])
    j = i + int(np.flatnonzero(S[i + 1 :] == S[i] + best)[0])
    return i, j


class BTEFilter(DensityFilter):
    """BTE (Finn et al. 2001): labels as content the blocks whose text runs lie in the
    range of tokens with the most words and the fewest tags."""

    name = "bte"

    def __init__(self, skip_hidden: bool = True, combine: str = "set") -> None:
        self.skip_hidden = skip_hidden
        self.combine = check_combine(combine)

    def __call__(self, doc: Document) -> bool:
        stats = self.stats(doc)
        if stats is None:
            return False
        values, origin = bte_values(stats)
        selected = np.zeros(stats.run_len.size, dtype=bool)
        found = bte_range(values)
        if found is not None:
            runs = origin[found[0] : found[1] + 1]
            selected[runs[runs >= 0]] = True
        return label_runs(doc, stats, selected, self.combine)
