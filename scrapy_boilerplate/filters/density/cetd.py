"""CETD: content extraction via text density (Sun, Song, Liao, SIGIR 2011).

Per element: composite text density CTD from its characters C, tags T, link characters LC
and link tags LT; DensitySum, the CTD of its children plus its own text runs taken as
link-free nodes; the threshold, the smallest CTD from the max-DensitySum element up to
``<body>``; and the marking, which keeps the max-DensitySum subtree of every element whose
CTD reaches the threshold (``docs/algorithms.md`` 3.1).
"""

from __future__ import annotations

import math

import numpy as np

from ...document import Document
from ._dom import DensityFilter, DomStats, check_combine, label_subtrees

__all__ = ["CETD_EPSILON", "CETDFilter", "cetd_scores", "cetd_select", "subtree_argmax"]

#: tolerance of the threshold comparisons (CETD authors' code compares with an epsilon)
CETD_EPSILON = 1e-9


def _zero_to_one(values: np.ndarray) -> np.ndarray:
    return np.where(values == 0, 1.0, values)


def _ln_ln(values: np.ndarray) -> np.ndarray:
    return np.log(np.log(values + math.e))


def cetd_scores(stats: DomStats) -> tuple[np.ndarray, np.ndarray, float]:
    """Per element its CTD and DensitySum, and the page's link ratio.

    ``CTD = (C/T) ln(C T / (LC LT)) / ln ln(C LC / nLC + ratio C + e)``, with
    ``nLC = C - LC``, ``ratio = LC / C`` of the start element, any zero among T, LC, LT and
    nLC replaced by 1, and CTD = 0 where C = 0. DensitySum: the CTD of an element without
    child elements; otherwise the sum of its children's CTD plus, per own text run of L
    characters, the CTD of a link-free node with T = 1, ``L ln L / ln ln(1 + ratio L + e)``.
    """
    C, T, LC, LT = stats.C, stats.T, stats.LC, stats.LT
    ratio = float(LC[0] / C[0]) if stats.n and C[0] > 0 else 0.0
    Tz = _zero_to_one(T)
    LCz = _zero_to_one(LC)
    LTz = _zero_to_one(LT)
    nLCz = _zero_to_one(C - LC)
    has_text = C > 0
    Cs = np.where(has_text, C, 1.0)  # (no log of 0 where C = 0: those are set to 0 below)
    ctd = (Cs / Tz) * np.log(Cs * Tz / (LCz * LTz)) / _ln_ln(Cs * LCz / nLCz + ratio * Cs)
    ctd = np.where(has_text, ctd, 0.0)
    n = stats.n
    child_sum = np.bincount(stats.parent[1:], weights=ctd[1:], minlength=n)
    with_text = stats.run_len > 0
    L = stats.run_len[with_text]
    pseudo = L * np.log(L) / _ln_ln(1.0 + ratio * L)
    run_sum = np.bincount(stats.run_owner[with_text], weights=pseudo, minlength=n)
    density_sum = np.where(stats.nchild == 0, ctd, child_sum + run_sum)
    return ctd, density_sum, ratio


def subtree_argmax(stats: DomStats, values: np.ndarray) -> list[int]:
    """Per element, the element of its subtree (itself included) with the largest value;
    ties go to the first in document order. One reverse pre-order pass."""
    n = stats.n
    order = np.lexsort((np.arange(n), -values))  # the best first; ties by position
    rank = np.empty(n, dtype=np.intp)
    rank[order] = np.arange(n)
    ranks = rank.tolist()
    best = list(range(n))
    parent = stats.parent.tolist()
    for i in range(n - 1, 0, -1):
        b = best[i]
        p = parent[i]
        if ranks[b] < ranks[best[p]]:
            best[p] = b
    return best


def cetd_select(stats: DomStats, keep_path_text: bool = True) -> np.ndarray:
    """Per element, whether CETD keeps its own text.

    The threshold t is the smallest CTD on the way from the max-DensitySum element up to
    the start element. From the start element down, every element not yet content whose
    CTD reaches t makes the max-DensitySum element of its subtree content (with its
    subtree) and that element's ancestors path nodes, and its children are visited in
    turn. Path nodes keep their own text when ``keep_path_text`` (the reference output
    deletes only what is neither content nor path).
    """
    n = stats.n
    content = np.zeros(n, dtype=bool)
    if n == 0 or stats.C[0] <= 0:
        return content
    path_node = np.zeros(n, dtype=bool)
    ctd, density_sum, _ = cetd_scores(stats)
    parent = stats.parent.tolist()
    end = stats.end.tolist()
    ctds = ctd.tolist()
    best = subtree_argmax(stats, density_sum)

    def mark(m: int) -> None:
        content[m : end[m]] = True
        a = parent[m]
        while a >= 0 and not path_node[a]:
            path_node[a] = True
            a = parent[a]

    top = best[0]
    threshold = ctds[top]
    a = parent[top]
    while a >= 0:
        threshold = min(threshold, ctds[a])
        a = parent[a]
    mark(top)
    threshold -= CETD_EPSILON
    stack = [0]
    while stack:
        i = stack.pop()
        if content[i] or ctds[i] < threshold:
            continue
        m = best[i]
        if not content[m]:
            mark(m)
        children = []
        c = i + 1
        stop = end[i]
        while c < stop:
            children.append(c)
            c = end[c]
        stack.extend(reversed(children))  # visited in document order
    return content | path_node if keep_path_text else content


class CETDFilter(DensityFilter):
    """CETD (Sun et al. 2011): labels as content the blocks of the subtrees CETD keeps,
    and with ``keep_path_text`` the own text of their ancestors, as CETD's output does."""

    name = "cetd"

    def __init__(
        self, keep_path_text: bool = True, skip_hidden: bool = True, combine: str = "set"
    ) -> None:
        self.keep_path_text = keep_path_text
        self.skip_hidden = skip_hidden
        self.combine = check_combine(combine)

    def __call__(self, doc: Document) -> bool:
        stats = self.stats(doc)
        if stats is None:
            return False
        return label_subtrees(doc, stats, cetd_select(stats, self.keep_path_text), self.combine)
