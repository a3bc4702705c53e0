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

import sys

from scrapy_boilerplate import get_extractor
from scrapy_boilerplate.evaluation.datasets import Page

from .text_pairs import compare_text_pairs, sets_parser

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
    args = sets_parser(__doc__.split("\n\n")[0], SETS).parse_args(argv)
    extractor = get_extractor()

    def pair(page: Page) -> tuple[str, str]:
        result = extractor.extract(page.html, page.url, metadata=True)
        headline = (result.metadata or {}).get("headline") or ""
        return result.text, with_headline(result.text, headline)

    compare_text_pairs(args.data, args.sets, pair, "headline added")
    return 0


if __name__ == "__main__":
    sys.exit(main())
