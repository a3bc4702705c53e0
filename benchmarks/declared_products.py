#!/usr/bin/env python
"""Pages that declare a product read by the every-type model, as declared discussions are.

    python -m benchmarks.declared_products [--unseen] [--any]

A shop's page names itself a product for search engines: a JSON-LD ``@type`` ``Product``,
a microdata ``itemtype`` ``schema.org/Product`` or ``og:type`` product (83 of wcxb-dev's
92 product pages, 22 of its collections, 8 of its articles; 29 trafilatura-eval pages,
two htmltotext-benchmark pages, no other unseen page). The default reads a page that declares a discussion
with its every-type model; here a page that declares a product, and no article
(``benchmarks.boosted_page_kind.declares_article``; ``--any``: whatever else it
declares), goes there too. Decoding only, paired: the default as shipped and the variant
read the same pages with the same trees, cross-validated by site with the fold models of
``benchmarks.grouped_cv --discussion-folds`` (``grouped_cv/boosted+discussions/foldK``,
the every-type model's ``boosted_page_types/boosted/foldK``), and with ``--unseen`` the
shipped models on the six unseen sets. The variant patches
``BoostedLabeler.model_for`` for the run. Not part of the package (measured 2026-12-02:
+0.0002 on the training sets; docs/neural.md); the ``[train]`` extra for the folds.
"""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from benchmarks.boosted_page_kind import declares_article, og_type_starts
from benchmarks.boosted_variants import DATA, set_f1
from benchmarks.grouped_cv import OUT, FoldPages, fold_spec, run_folder
from scrapy_boilerplate.evaluation.datasets import open_dataset
from scrapy_boilerplate.evaluation.evaluate import run_page
from scrapy_boilerplate.evaluation.runners import chain_runner
from scrapy_boilerplate.filters.comments import (
    _MICRODATA_TYPES,
    MAX_DECLARATIONS,
    json_ld_declares,
)
from scrapy_boilerplate.neural import boosted
from scrapy_boilerplate.training.dataset import EVALUATION_ONLY_SETS, SHIPPED_TRAINING_SETS

#: ``"@type": "Product"`` or a list of types that holds it (not ``"ProductGroup"``, and
#: not a later key's value: a list cannot end before its ``]``)
_PRODUCT_JSON_LD = re.compile(r'"@type"\s*:\s*(?:"Product"|\[[^\]]*"Product")')
_PRODUCT_ITEMTYPE = re.compile(r"schema\.org/Product\b")
EVERY_TYPE_FOLDS = OUT.parent / "boosted_page_types" / "boosted"


def declares_product(root: Any) -> bool:
    """Whether the page names itself a product: ``og:type`` product, a JSON-LD ``@type``
    ``Product`` or a microdata ``itemtype`` ``schema.org/Product`` (the first
    ``MAX_DECLARATIONS`` of each)."""
    if root is None:
        return False
    if og_type_starts(root, "product") or json_ld_declares(root, _PRODUCT_JSON_LD):
        return True
    types = _MICRODATA_TYPES(root)[:MAX_DECLARATIONS]
    return any(_PRODUCT_ITEMTYPE.search(value) for value in types)


@contextmanager
def products_routed(gate_on_article: bool) -> Iterator[None]:
    """``BoostedLabeler.model_for`` sending the pages that declare a product (and, with
    ``gate_on_article``, no article) to the every-type model, for the ``with`` block."""
    own = boosted.BoostedLabeler.model_for

    def model_for(self: boosted.BoostedLabeler, doc: Any) -> boosted.BoostedModel:
        if self.pages != "any" and declares_product(doc.root):
            if not (gate_on_article and declares_article(doc.root)):
                return self.discussion_model()
        return own(self, doc)

    boosted.BoostedLabeler.model_for = model_for  # type: ignore[method-assign]
    try:
        yield
    finally:
        boosted.BoostedLabeler.model_for = own  # type: ignore[method-assign]


def cross_validated(name: str, folds: int = 4) -> float:
    """A training set's F1, each page read by the fold models that never saw its site."""
    pages = []
    for fold in range(folds):
        model_dir = OUT / run_folder("boosted", {}, discussions=True) / f"fold{fold}"
        spec = fold_spec("boosted", model_dir, EVERY_TYPE_FOLDS / f"fold{fold}")
        runner = chain_runner(spec, "boosted")
        for page in FoldPages(open_dataset(DATA / name), fold, folds).iter_pages():
            pages.append(run_page(runner, page, "auto"))
    return set_f1(pages)


def scores(unseen: bool) -> dict[str, float]:
    """Per set the default's F1 as the patching in force has it."""
    out = {name: cross_validated(name) for name in SHIPPED_TRAINING_SETS}
    if unseen:
        runner = chain_runner("boosted", "boosted")
        for name in EVALUATION_ONLY_SETS:
            pages = open_dataset(DATA / name).iter_pages()
            out[name] = set_f1(run_page(runner, page, "auto") for page in pages)
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--unseen", action="store_true", help="also the six unseen sets")
    parser.add_argument("--any", action="store_true", help="also pages that declare an article")
    args = parser.parse_args(argv)
    before = scores(args.unseen)
    with products_routed(gate_on_article=not args.any):
        after = scores(args.unseen)
    print("| set | default | products to the every-type model | change |")
    print("|---|---:|---:|---:|")
    for name in before:
        print(
            f"| {name} | {before[name]:.4f} | {after[name]:.4f} | {after[name] - before[name]:+.4f} |"
        )
    means = (("training sets'", SHIPPED_TRAINING_SETS), ("unseen sets'", EVALUATION_ONLY_SETS))
    for label, names in means:
        if all(n in before for n in names):
            b = sum(before[n] for n in names) / len(names)
            a = sum(after[n] for n in names) / len(names)
            print(f"| {label}' mean | {b:.4f} | {a:.4f} | {a - b:+.4f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
