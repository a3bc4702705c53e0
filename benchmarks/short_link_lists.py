#!/usr/bin/env python
"""Decoding with the short blocks of a list left out: a stretch of short blocks between
two content blocks does not follow them when it looks like a menu.

    python -m benchmarks.grouped_cv --model boosted        # the fold models, first
    python -m benchmarks.short_link_lists [--variants linked,stretch:4,linked:3] [--unseen]

The default decides blocks of up to 4 words by their neighbours: such a block is content
if the nearest longer blocks before and after it both are. Where a run of content
crosses a sidebar (a doubtful "Hello stranger, let's connect" line joins the story's
run), every short block of the sidebar between them becomes content: a blog's category
list ("ads", "images", "videos"), its archive of months. Variants, each leaving out of
the content the short blocks that the neighbour rule made content:

- ``linked``: every short block whose words are all links;
- ``linked:N``: the short blocks all of whose words are links, in a stretch of ``N`` or
  more such blocks one after another (a menu, not one linked word in a story);
- ``stretch:N``: every short block in a stretch of ``N`` or more short blocks with no
  longer block between them.

Everything else decodes as shipped (runs, footers, rescues, the summary seed). Scored as
every ``boosted`` choice: the training sets cross-validated by site (each fold's pages by
the model of ``benchmarks.grouped_cv`` that never saw their site), then (``--unseen``)
the shipped model on the six sets no model trained on. An experiment that does not ship.
Not a test: nothing is asserted.
"""

from __future__ import annotations

import sys

import numpy as np

from .boosted_variants import DecodingLabeler, decoding_main


def stretch_lengths(mask: np.ndarray) -> np.ndarray:
    """Per element, the length of the maximal run of consecutive True elements of
    ``mask`` it lies in (0 where ``mask`` is False)."""
    if not len(mask):
        return np.zeros(0, dtype=np.int64)
    starts = mask & ~np.concatenate(([False], mask[:-1]))
    run = np.cumsum(starts) - 1
    lengths = np.bincount(run[mask], minlength=max(int(run.max()) + 1, 1))
    return np.where(mask, lengths[np.maximum(run, 0)], 0)


def vetoed(mode: str, short: np.ndarray, linked: np.ndarray) -> np.ndarray:
    """The short blocks a variant leaves out (``short``: blocks the trees do not decide;
    ``linked``: blocks all of whose words are links)."""
    name, _, count = mode.partition(":")
    if name == "linked":
        mask = short & linked
        return mask if not count else stretch_lengths(mask) >= int(count)
    if name == "stretch":
        return stretch_lengths(short) >= int(count)
    raise ValueError(f"unknown variant {mode!r}")


class ShortListLabeler(DecodingLabeler):
    """The boosted labeler, with the short blocks of the variant (see the module doc)
    never made content by their neighbours."""

    @classmethod
    def parse(cls, variant: str) -> str:
        vetoed(variant, np.zeros(1, dtype=bool), np.zeros(1, dtype=bool))
        return variant

    def decisions(self, doc, scores) -> np.ndarray:  # type: ignore[no-untyped-def]
        content = scores.content(scores.threshold)  # the shipped decoding, then the veto
        linked = np.array([b.link_density >= 1.0 for b in doc.blocks], dtype=bool)
        return content & ~vetoed(self.variant, ~scores.long, linked)


def main(argv: list[str] | None = None) -> int:
    return decoding_main(
        argv, __doc__.split("\n\n")[0], ShortListLabeler, "linked,linked:3,stretch:4"
    )


if __name__ == "__main__":
    sys.exit(main())
