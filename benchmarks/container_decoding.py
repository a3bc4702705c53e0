#!/usr/bin/env python
"""Decoding with the article's container: blocks outside the page's most content-like
element need a higher probability to be content.

    python -m benchmarks.grouped_cv --model boosted        # the fold models, first
    python -m benchmarks.container_decoding [--variants 0.5:0.8,0.5:0.9] [--unseen]

The trees decide each block from its own columns and the page around it; a sidebar list
of five-word headlines ("Carmack sorry about performance of Rage on PC 89 6days 4hrs
ago") can reach the threshold beside the story. This variant reads the trees'
probabilities once more over the collapsed DOM: each node's score is the sum over its
long blocks of ``words * (p - centre)``, the node with the highest score is taken for
the article's container, and a long block outside it is content only if its probability
reaches ``outside`` (a variant ``centre:outside``). Everything else decodes as shipped.

Scored as every ``boosted`` choice: the training sets cross-validated by site (each
fold's pages by the model of ``benchmarks.grouped_cv`` that never saw their site), then
(``--unseen``) the shipped model on the six sets no model trained on. An experiment that
does not ship. Not a test: nothing is asserted.
"""

from __future__ import annotations

import sys

import numpy as np

from scrapy_boilerplate.neural.structure import Structure

from .boosted_variants import DecodingLabeler, decoding_main


class ContainerLabeler(DecodingLabeler):
    """The boosted labeler, long blocks outside the best-scoring node held to
    ``outside`` (the variant: ``centre:outside``)."""

    @classmethod
    def parse(cls, variant: str) -> tuple[float, float]:
        centre, outside = map(float, variant.split(":"))
        return centre, outside

    def decisions(self, doc, scores) -> np.ndarray:  # type: ignore[no-untyped-def]
        centre, outside = self.variant
        excluded = scores.excluded
        if len(scores.rows) > 1:
            s = Structure(doc.blocks, doc.root)
            gain = np.zeros(len(doc.blocks) + 1)
            gain[scores.rows + 1] = scores.words[scores.rows] * (scores.probability - centre)
            prefix = np.cumsum(gain)
            first = np.asarray(s.node_first, dtype=np.int64)
            last = np.asarray(s.node_last, dtype=np.int64) + 1
            best = int(np.argmax(prefix[last] - prefix[first]))
            inside = (scores.rows >= first[best]) & (scores.rows < last[best])
            excluded = excluded | (~inside & (scores.probability < outside))
        # the shipped decoding (runs, short blocks, footers) with the variant's exclusions
        return scores._replace(excluded=excluded).content(scores.threshold)


def main(argv: list[str] | None = None) -> int:
    return decoding_main(
        argv, __doc__.split("\n\n")[0], ContainerLabeler, "0.5:0.7,0.5:0.8,0.5:0.9,0.3:0.8"
    )


if __name__ == "__main__":
    sys.exit(main())
