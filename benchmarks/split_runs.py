#!/usr/bin/env python
"""Decoding with runs cut where the DOM parts: a run of doubtful blocks may not ride on a
sure block that lies in another part of the page.

    python -m benchmarks.grouped_cv --model boosted        # the fold models, first
    python -m benchmarks.split_runs [--variants 0.5,0.7,0.9] [--unseen]

The default's runs decoding joins every tree-decided block at the grow threshold (0.4)
to a run holding a block at the seed threshold (0.55), in page order, whatever lies
between them in the DOM: a text-like sidebar right after the story ("Danwei is an
affiliate of ...", "Sinica is a weekly podcast ..."), or a list of linked headlines
right before it, whose blocks the trees doubt, joins the story's run. This variant cuts
a run between two consecutive tree-decided blocks whose smallest common collapsed-DOM
node holds at least a share ``S`` of the page's blocks (they meet only near the root:
the story's column and the sidebar's); each part is then content only if it holds a
sure block of its own. Everything else decodes as shipped (short blocks, footers,
rescues, the summary seed).

Scored as every ``boosted`` choice: the training sets cross-validated by site (each
fold's pages by the model of ``benchmarks.grouped_cv`` that never saw their site), then
(``--unseen``) the shipped model on the six sets no model trained on. An experiment that
does not ship. Not a test: nothing is asserted.
"""

from __future__ import annotations

import sys

import numpy as np

from scrapy_boilerplate.neural.structure import Structure

from .boosted_variants import DecodingLabeler, decoding_main, runs_cut_at


def meeting_share(s: Structure, rows: np.ndarray, n: int) -> np.ndarray:
    """Per pair of consecutive ``rows`` (block indices, in page order), the share of the
    page's ``n`` blocks held by the smallest collapsed-DOM node holding both."""
    first = np.asarray(s.node_first, dtype=np.int64)
    last = np.asarray(s.node_last, dtype=np.int64)
    size = last - first + 1
    order = np.argsort(size, kind="stable")  # smallest nodes first
    first, last, size = first[order], last[order], size[order]
    out = np.ones(max(len(rows) - 1, 0))
    for k in range(len(rows) - 1):
        i, j = rows[k], rows[k + 1]
        hit = np.flatnonzero((first <= i) & (last >= j))
        if len(hit):
            out[k] = size[hit[0]] / n
    return out


class SplitRunsLabeler(DecodingLabeler):
    """The boosted labeler, its runs cut where consecutive blocks meet only in a node
    holding a share of the page's blocks or more (the variant: that share)."""

    @classmethod
    def parse(cls, variant: str) -> float:
        return float(variant)

    def decisions(self, doc, scores) -> np.ndarray:  # type: ignore[no-untyped-def]
        rows = scores.rows
        cut = np.zeros(max(len(rows) - 1, 0), dtype=bool)
        if len(rows) > 1:
            s = Structure(doc.blocks, doc.root)
            cut = meeting_share(s, rows, len(doc.blocks)) >= self.variant
        return runs_cut_at(scores, cut)


def main(argv: list[str] | None = None) -> int:
    return decoding_main(argv, __doc__.split("\n\n")[0], SplitRunsLabeler, "0.5,0.7,0.9")


if __name__ == "__main__":
    sys.exit(main())
