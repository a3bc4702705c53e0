#!/usr/bin/env python
"""How much of a set's token F1 hangs on whether its references keep the headline: the
default extractor's text as it is, and with the page's headline (as the metadata
chooses it: the ``<h1>`` that matches the declarations) put before it where the text
does not already begin with it.

    python -m benchmarks.headline_convention [--sets cleaneval-train,dragnet-test,...]

The unseen sets' references mostly hold the ``<h1>``, the training sets' mostly do not
(docs/neural.md, "Figures"); the default follows the training sets. An experiment that
does not ship: it says how large that convention is, per set (precision, recall and F1
as the evaluate command computes them). Needs the ``[article]`` extra (metadata).
Not a test: nothing is asserted.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from scrapy_boilerplate import get_extractor
from scrapy_boilerplate.evaluation import find_datasets
from scrapy_boilerplate.evaluation.metrics import score_page, summarize, tokens_for_lang

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT.parent / "shared" / "data"
SETS = (
    "cleaneval-train,cleanportaleval,dragnet-test,htmltotext-benchmark,l3s-gn1,utomo-big9,"
    "wcxb-dev,mozilla-readability,zh-cwced-dev"
)
#: how far into the text the headline may already stand
NEAR_THE_START = 200


def with_headline(text: str, headline: str) -> str:
    """``text`` with ``headline`` before it, unless it is empty or already begins there."""
    if not text or not headline or headline in text[: len(headline) + NEAR_THE_START]:
        return text
    return f"{headline}\n\n{text}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", default=str(DATA))
    parser.add_argument("--sets", default=SETS)
    args = parser.parse_args(argv)
    extractor = get_extractor()
    wanted = args.sets.split(",")
    for dataset in find_datasets([args.data]):
        if dataset.name not in wanted:
            continue
        plain, headed, changed = [], [], 0
        for page in dataset.iter_pages():
            if page.main_text is None:  # (snippet sets: no full reference to score)
                continue
            result = extractor.extract(page.html, page.url, metadata=True)
            tokens = tokens_for_lang("auto", page.lang)
            text = with_headline(result.text, (result.metadata or {}).get("headline") or "")
            changed += text != result.text
            plain.append(score_page(page.main_text, result.text, tokens))
            headed.append(score_page(page.main_text, text, tokens))
        if not plain:
            continue
        a, b = summarize(plain, n_bootstrap=0), summarize(headed, n_bootstrap=0)
        print(
            f"{dataset.name:22s} pages {len(plain):5d}  headline added {changed:5d}  "
            f"F1 {a.f1:.4f} (P {a.precision:.3f} R {a.recall:.3f}) -> {b.f1:.4f} "
            f"(P {b.precision:.3f} R {b.recall:.3f})  {b.f1 - a.f1:+.4f}",
            flush=True,
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
