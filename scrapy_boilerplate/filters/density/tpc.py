"""CETD-TPC: text block density and tag path coverage (Liu, Hu, Wu 2018).

From the paper (``../shared/seeds/001_84c63778563747ce.txt``):

* eq. 1, text block density: ``TBD(v) = sum over v's children of (CN - LCN + 1) /
  (TN - LTN + 1)``: characters, link characters, tags and link tags of each child's
  subtree (CETD's C, LC, T and LT);
* eq. 3, text-to-tag-path ratio: ``TPR(p)`` = characters of the text nodes with tag path
  ``p`` / their number;
* content nodes: the text nodes whose path's TPR is above the threshold tau, which the
  paper takes from CEPR (an empirical threshold; ours is ``lambda * std(TPR)``, lambda
  chosen on our dev sets);
* eqs. 4-5, content tag path coverage: ``CTPC(blk(v))`` = content nodes in v's subtree /
  all content nodes;
* eq. 6, ``TDTPC = TBD x CTPC``; the subtree of the element with the largest TDTPC is the
  content.
"""

from __future__ import annotations

import numpy as np

from ...document import Document
from ._dom import DensityFilter, DomStats, check_combine, label_subtrees

__all__ = [
    "TPC_LAMBDA",
    "CETDTPCFilter",
    "cetd_tpc_select",
    "tag_path_ratios",
    "text_block_density",
]

#: tau = lambda * std(TPR) for CETD-TPC's content nodes; lambda chosen on our dev sets
#: (docs/density.md: the paper reuses CEPR's empirical threshold, which we could not read)
TPC_LAMBDA = 1.5


def text_block_density(
    stats: DomStats, text_nodes: bool = False, own_tag: bool = True
) -> np.ndarray:
    """TBD of every element (eq. 1): over its children, (CN - LCN + 1) / (TN - LTN + 1).

    CN is CETD's C; LCN is CETD's LC, except inside a link, where every character is a
    link character. TN and LTN are CETD's T and LT (the tags and link tags below the
    child), plus with ``own_tag`` the child's own tag (the block rooted at the child holds
    it). With ``text_nodes`` the element's own text runs are children too, as in a DOM
    whose children include text nodes (TN = LTN = 0; LCN = CN inside a link, else 0).
    """
    n = stats.n
    LCN = np.where(stats.in_link, stats.C, stats.LC)
    TN = stats.T + 1.0 if own_tag else stats.T
    LTN = stats.LT + stats.link if own_tag else stats.LT
    dens = (stats.C - LCN + 1.0) / (TN - LTN + 1.0)
    tbd = np.bincount(stats.parent[1:], weights=dens[1:], minlength=n).astype(np.float64)
    if text_nodes:
        with_text = stats.run_len > 0
        owner = stats.run_owner[with_text]
        plain = np.where(stats.in_link[owner], 0.0, stats.run_len[with_text])
        tbd += np.bincount(owner, weights=plain + 1.0, minlength=n)
    return tbd


def tag_path_ratios(stats: DomStats) -> tuple[np.ndarray, np.ndarray]:
    """TPR (eq. 3) of every text run with text: the mean length of the runs that share its
    tag path (the path of the element the run is in). Returns (run indices, TPR)."""
    runs = np.flatnonzero(stats.run_len > 0)
    if runs.size == 0:
        return runs, np.zeros(0)
    pid = stats.path[stats.run_owner[runs]]
    npaths = len(stats.path_tag)
    sums = np.bincount(pid, weights=stats.run_len[runs], minlength=npaths)
    counts = np.bincount(pid, minlength=npaths)
    return runs, sums[pid] / counts[pid]


def cetd_tpc_select(
    stats: DomStats,
    tpr_lambda: float = TPC_LAMBDA,
    text_nodes: bool = False,
    own_tag: bool = True,
) -> tuple[int, np.ndarray]:
    """The element with the largest TDTPC (first in document order on ties), and TDTPC
    per element; (-1, zeros) when no text run is a content node."""
    n = stats.n
    runs, tpr = tag_path_ratios(stats)
    if runs.size == 0:
        return -1, np.zeros(n)
    tau = tpr_lambda * float(tpr.std())
    content_runs = runs[tpr > tau]
    if content_runs.size == 0:
        return -1, np.zeros(n)
    per_element = np.bincount(stats.run_owner[content_runs], minlength=n).astype(np.float64)
    ctpc = stats.subtree_sum(per_element) / content_runs.size
    tdtpc = text_block_density(stats, text_nodes, own_tag) * ctpc
    return int(np.argmax(tdtpc)), tdtpc


class CETDTPCFilter(DensityFilter):
    """CETD-TPC (Liu, Hu, Wu 2018): labels as content the blocks under the element with
    the largest TDTPC = TBD x CTPC."""

    name = "cetd_tpc"

    def __init__(
        self,
        tpr_lambda: float = TPC_LAMBDA,
        text_nodes: bool = False,
        own_tag: bool = True,
        skip_hidden: bool = True,
        combine: str = "set",
    ) -> None:
        self.tpr_lambda = tpr_lambda
        self.text_nodes = text_nodes
        self.own_tag = own_tag
        self.skip_hidden = skip_hidden
        self.combine = check_combine(combine)

    def __call__(self, doc: Document) -> bool:
        stats = self.stats(doc)
        if stats is None:
            return False
        best, _ = cetd_tpc_select(stats, self.tpr_lambda, self.text_nodes, self.own_tag)
        selected = np.zeros(stats.n, dtype=bool)
        if best >= 0:
            selected[best : stats.end[best]] = True
        return label_subtrees(doc, stats, selected, self.combine)
