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

import argparse
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import numpy as np

from scrapy_boilerplate import get_extractor
from scrapy_boilerplate.evaluation import find_datasets
from scrapy_boilerplate.evaluation.metrics import score_page, summarize, tokens_for_lang
from scrapy_boilerplate.neural import textstats

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT.parent / "shared" / "data"
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
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", default=str(DATA))
    parser.add_argument("--sets", default=SETS)
    args = parser.parse_args(argv)
    extractor = get_extractor()
    wanted = args.sets.split(",")
    deltas = []
    for dataset in find_datasets([args.data]):
        if dataset.name not in wanted:
            continue
        shipped, empty, changed = [], [], 0
        for page in dataset.iter_pages():
            if page.main_text is None:  # (snippet sets: no full reference to score)
                continue
            tokens = tokens_for_lang("auto", page.lang)
            text = extractor.extract(page.html, page.url).text
            with no_stopwords():
                blind = extractor.extract(page.html, page.url).text
            changed += blind != text
            shipped.append(score_page(page.main_text, text, tokens))
            empty.append(score_page(page.main_text, blind, tokens))
        if not shipped:
            continue
        a, b = summarize(shipped, n_bootstrap=0), summarize(empty, n_bootstrap=0)
        deltas.append(b.f1 - a.f1)
        print(
            f"{dataset.name:22s} pages {len(shipped):5d}  text changed {changed:5d}  "
            f"F1 {a.f1:.4f} (P {a.precision:.3f} R {a.recall:.3f}) -> {b.f1:.4f} "
            f"(P {b.precision:.3f} R {b.recall:.3f})  {b.f1 - a.f1:+.4f}",
            flush=True,
        )
    if deltas:
        print(f"mean change over {len(deltas)} sets: {sum(deltas) / len(deltas):+.4f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
