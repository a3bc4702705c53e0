#!/usr/bin/env python
"""How much the default extractor leans on its stopword list: each page's token F1 with
the list as shipped, and with it empty, as on a page in a language the list does not
know (its words then count as no stopwords at all).

    python -m benchmarks.unknown_language [--sets cleaneval-train,dragnet-test,...]

The text statistics behind the learned labelers count a block's stopwords from our own
short list (English, some German, French and Spanish, Chinese and Japanese stop
characters: ``neural/textstats.py``); 24 of the default's 394 columns read them. Pages in
Polish, Russian or Turkish get zeros there. Emptying the list on the unseen English sets
says what a language the list lacks costs, with the shipped model and nothing else
changed. An experiment that does not ship. Not a test: nothing is asserted.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager

import numpy as np

from scrapy_boilerplate import get_extractor
from scrapy_boilerplate.evaluation.datasets import Page
from scrapy_boilerplate.neural import textstats

from .text_pairs import compare_text_pairs, sets_parser

SETS = "cleaneval-train,cleanportaleval,dragnet-test,htmltotext-benchmark,l3s-gn1,utomo-big9"


@contextmanager
def no_stopwords() -> Iterator[None]:
    """Within the block, no word and no CJK character counts as a stopword (the Python
    twin of the counter runs: the compiled one holds its table in C)."""
    saved = (
        textstats.stopword_words,
        dict(textstats._STOP_CODES),
        textstats._STOPWORDS,
        textstats._CJK_STOP_CODES,
    )
    textstats.stopword_words = textstats.stopword_words_python
    textstats._STOP_CODES.clear()
    textstats._STOP_CODES[textstats._SENTINEL] = 2
    textstats._STOPWORDS = frozenset()
    textstats._CJK_STOP_CODES = np.zeros(0, dtype=np.uint32)
    try:
        yield
    finally:
        textstats.stopword_words, codes, textstats._STOPWORDS, textstats._CJK_STOP_CODES = saved
        textstats._STOP_CODES.clear()
        textstats._STOP_CODES.update(codes)


def main(argv: list[str] | None = None) -> int:
    args = sets_parser(__doc__.split("\n\n")[0], SETS).parse_args(argv)
    extractor = get_extractor()

    def pair(page: Page) -> tuple[str, str]:
        text = extractor.extract(page.html, page.url).text
        with no_stopwords():
            return text, extractor.extract(page.html, page.url).text

    compare_text_pairs(args.data, args.sets, pair, "text changed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
