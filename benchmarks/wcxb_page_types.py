#!/usr/bin/env python
"""Token F1 on wcxb-dev by page type: fold models cross-validated, other libraries beside.

    python -m benchmarks.grouped_cv --model boosted        # the fold models, first
    python -m benchmarks.quality --sets wcxb-dev           # the libraries' pages, cached
    python -m benchmarks.wcxb_page_types [FOLDS_DIR ...] [--libraries trafilatura_no_comments,resiliparse]

wcxb-dev labels each page with one of seven types (article, documentation, service,
forum, collection, listing, product) and its F1 mixes them all. Per type: each
``FOLDS_DIR`` (``benchmarks.grouped_cv``'s fold models, default the shipped
configuration's; each page extracted by the default chain with the model of the fold
that never saw its site), and each library from ``benchmarks.quality``'s cache of
whole-set runs. Not a test: nothing is asserted.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import defaultdict
from pathlib import Path

from scrapy_boilerplate.evaluation.datasets import open_dataset
from scrapy_boilerplate.evaluation.evaluate import PageResult
from scrapy_boilerplate.neural.boosted import BoostedLabeler

from .boosted_variants import DATA, fold_pairs, labeler_runner, score, set_f1
from .grouped_cv import OUT
from .quality import WORK_DIR

TYPES = ("article", "documentation", "service", "forum", "collection", "listing", "product")


def page_types(data: Path = DATA) -> dict[str, str]:
    """wcxb-dev's page id -> page type."""
    labels = open_dataset(data / "wcxb-dev").iter_labels()
    return {page.id: page.extras.get("page_type") for page in labels}


def folds_by_type(folds_dir: Path, types: dict[str, str], folds: int = 4) -> dict[str, float]:
    """Per page type, the F1 of the fold models' extractions of its held-out pages."""
    base = open_dataset(DATA / "wcxb-dev")
    pairs = defaultdict(list)
    for runner, page in fold_pairs(base, labeler_runner(BoostedLabeler, "folds"), folds_dir, folds):
        pairs[types.get(page.id)].append((runner, page))
    return {t: score(pairs[t]) for t in TYPES if pairs[t]}


def library_by_type(name: str, types: dict[str, str], work: Path = WORK_DIR) -> dict[str, float]:
    """Per page type, the F1 of a library's cached whole-set run (empty if not cached)."""
    path = work / "quality" / f"wcxb-dev__{name}.json"
    if not path.exists():
        return {}
    by_type = defaultdict(list)
    for page in json.loads(path.read_text(encoding="utf-8"))["pages"]:
        by_type[types.get(page["id"])].append(PageResult.from_dict(page))
    return {t: set_f1(by_type[t]) for t in TYPES if by_type[t]}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folds_dirs", nargs="*", type=Path, default=[OUT / "boosted"])
    parser.add_argument(
        "--libraries", default="trafilatura_no_comments,readability,resiliparse,justext"
    )
    args = parser.parse_args(argv)
    types = page_types()
    rows = [(str(d), folds_by_type(d, types)) for d in args.folds_dirs]
    rows += [(n, library_by_type(n, types)) for n in args.libraries.split(",") if n]
    print("| run | " + " | ".join(TYPES) + " |\n|---|" + "---:|" * len(TYPES))
    for name, scores in rows:
        cells = " | ".join(f"{scores[t]:.3f}" if t in scores else "" for t in TYPES)
        print(f"| {name} | {cells} |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
