"""Two texts of every page side by side: the default extractor's and a variant's.

The experiments that change the text after (or around) the extraction, such as
``headline_convention`` and ``unknown_language``, give each page's pair; this scores
both against the reference as the evaluate command does and prints one row per set.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from pathlib import Path

from scrapy_boilerplate.evaluation import find_datasets
from scrapy_boilerplate.evaluation.datasets import Page
from scrapy_boilerplate.evaluation.metrics import score_page, summarize, tokens_for_lang

DATA = Path(__file__).resolve().parent.parent.parent / "shared" / "data"


def sets_parser(description: str, sets: str) -> argparse.ArgumentParser:
    """The experiments' command line: ``--data`` and ``--sets`` (comma-separated)."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--data", default=str(DATA))
    parser.add_argument("--sets", default=sets)
    return parser


def compare_text_pairs(
    data: str, sets: str, pair: Callable[[Page], tuple[str, str]], changed: str
) -> list[float]:
    """Per set of ``sets`` with reference texts: each page's (shipped, variant) texts
    from ``pair``, both scored; prints the set's F1 of each, its precision and recall,
    and how many pages' texts differ (``changed`` names them). Returns the F1 changes."""
    wanted = sets.split(",")
    deltas = []
    for dataset in find_datasets([data]):
        if dataset.name not in wanted:
            continue
        shipped, variant, differ = [], [], 0
        for page in dataset.iter_pages():
            if page.main_text is None:  # (snippet sets: no full reference to score)
                continue
            tokens = tokens_for_lang("auto", page.lang)
            text, other = pair(page)
            differ += other != text
            shipped.append(score_page(page.main_text, text, tokens))
            variant.append(score_page(page.main_text, other, tokens))
        if not shipped:
            continue
        a, b = summarize(shipped, n_bootstrap=0), summarize(variant, n_bootstrap=0)
        deltas.append(b.f1 - a.f1)
        print(
            f"{dataset.name:22s} pages {len(shipped):5d}  {changed} {differ:5d}  "
            f"F1 {a.f1:.4f} (P {a.precision:.3f} R {a.recall:.3f}) -> {b.f1:.4f} "
            f"(P {b.precision:.3f} R {b.recall:.3f})  {b.f1 - a.f1:+.4f}",
            flush=True,
        )
    if deltas:
        print(f"mean change over {len(deltas)} sets: {sum(deltas) / len(deltas):+.4f}")
    return deltas
