#!/usr/bin/env python
"""Blocks that other pages of the same site repeat, as a crawl sees them: boilerplate?

    python -m benchmarks.site_repeats [--unseen] [--sets a,b]

A crawler reads many pages of each site, and a site's template (its sidebar's "About
me", its sponsors' boxes, its newsletter pitch) repeats on every one of them, while a
story does not. Variants, each content block of a page checked against the blocks of the
other pages of its site in the same set (``training.dataset.site_of``; whitespace and
case aside):

- ``any``: dropped where its text is a block of any other page of the site;
- ``boiler``: dropped where another page of the site has it and did not keep it;
- ``site_memory``: the package's rule (``scrapy_boilerplate.site_memory``, what a crawl
  does): the pages read in the set's order with one ``SiteMemory``, each page's content
  blocks that the earlier pages of its site left out at least as often as they kept
  them (the same text at the same depth in the tree) left out.

The first two see every other page of the site, the later ones too: what a crawl could
do in two passes, an upper bound for the memory's one pass. Decoding only, paired: every
page is read by the default as shipped (the training sets' pages by the fold models of
``benchmarks.grouped_cv --discussion-folds`` that never saw their site, the six unseen
sets', with ``--unseen``, by the shipped models), then each variant's text scored as the
evaluate command scores it. All pages of a site lie in one fold, so the pages compared
were read by the same trees.
"""

from __future__ import annotations

import argparse
import sys
from collections import defaultdict
from collections.abc import Callable, Iterable
from typing import Any

from benchmarks.boosted_variants import DATA, set_f1
from benchmarks.grouped_cv import OUT, fold_of, fold_spec, run_folder
from scrapy_boilerplate.evaluation.datasets import Page, open_dataset
from scrapy_boilerplate.evaluation.evaluate import run_page
from scrapy_boilerplate.evaluation.runners import Runner
from scrapy_boilerplate.extraction import Extractor, get_extractor
from scrapy_boilerplate.render import render_text
from scrapy_boilerplate.site_memory import SiteMemory
from scrapy_boilerplate.training.dataset import (
    EVALUATION_ONLY_SETS,
    SHIPPED_TRAINING_SETS,
    site_of,
)

EVERY_TYPE_FOLDS = OUT.parent / "boosted_page_types" / "boosted"
#: the variants beside the shipped extraction; ``site_memory`` is the package's rule
VARIANTS = ("any", "boiler", "site_memory")


def key(text: str) -> str:
    """A block's text with whitespace and case aside."""
    return " ".join(text.split()).lower()


class SitePage:
    """One page as read: its site, its blocks' keys and which of them it kept; and its
    text as read with the set's :class:`SiteMemory` (``memory``) of the pages before."""

    def __init__(self, page: Page, site: str, extractor: Extractor, memory: SiteMemory) -> None:
        self.page, self.site = page, site
        result = extractor.extract(page.html, page.url)
        self.doc = result.document
        self.text = result.text
        blocks = self.doc.blocks if self.doc is not None else []
        self.kept = {key(b.text) for b in blocks if b.is_content}
        self.dropped = {key(b.text) for b in blocks if not b.is_content}
        self.remembered = extractor.extract(page.html, page.url, site_memory=memory).text


def repeated(variant: str, block_key: str, others: Iterable[SitePage]) -> bool:
    """Whether a content block's text is the site's template, by the variant (all the
    other pages of the site in the set, whatever their order)."""
    if variant == "any":
        return any(block_key in o.kept or block_key in o.dropped for o in others)
    return any(block_key in o.dropped for o in others)


def variant_text(page: SitePage, others: list[SitePage], variant: str) -> str:
    """The page's text by the variant."""
    if variant == "site_memory":
        return page.remembered
    if page.doc is None or not others:
        return page.text
    saved = []
    for block in page.doc.blocks:
        if block.is_content and block.num_words and repeated(variant, key(block.text), others):
            saved.append(block)
            block.is_content = False
    text = render_text(page.doc)
    for block in saved:
        block.is_content = True
    return text


def read_set(name: str, extractor_for: Callable[[Page], Extractor]) -> list[SitePage]:
    """Every page of a set, read by its extractor."""
    ds = open_dataset(DATA / name)
    memory = SiteMemory()
    return [
        SitePage(p, site_of(name, p.id, p.url), extractor_for(p), memory) for p in ds.iter_pages()
    ]


def fold_extractors(name: str, folds: int = 4) -> Callable[[Page], Extractor]:
    """Each page's fold extractor: the default's fold models that never saw its site."""
    extractors = []
    for fold in range(folds):
        model_dir = OUT / run_folder("boosted", {}, discussions=True) / f"fold{fold}"
        spec = fold_spec("boosted", model_dir, EVERY_TYPE_FOLDS / f"fold{fold}")
        extractors.append(get_extractor(spec))
    return lambda page: extractors[fold_of(site_of(name, page.id, page.url), folds)]


def scores(pages: list[SitePage]) -> dict[str, float]:
    """The set's F1 as read and under each variant."""
    by_site: dict[str, list[SitePage]] = defaultdict(list)
    for p in pages:
        by_site[p.site].append(p)
    out = {}
    for variant in ("shipped", *VARIANTS):
        results = []
        for p in pages:
            others = [o for o in by_site[p.site] if o is not p]
            text = p.text if variant == "shipped" else variant_text(p, others, variant)
            runner = Runner(variant, "ours", lambda html, url, lang, text=text: text)
            results.append(run_page(runner, p.page, "auto"))
        out[variant] = set_f1(results)
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--unseen", action="store_true", help="also the six unseen sets")
    parser.add_argument("--sets", default="", help="only these sets (comma-separated)")
    args = parser.parse_args(argv)
    names = list(SHIPPED_TRAINING_SETS) + (list(EVALUATION_ONLY_SETS) if args.unseen else [])
    if args.sets:
        names = [n for n in names if n in args.sets.split(",")]
    shipped = get_extractor("boosted")
    table: dict[str, dict[str, float]] = {}
    for name in names:
        trained = name in SHIPPED_TRAINING_SETS
        extractor_for: Any = fold_extractors(name) if trained else (lambda page: shipped)
        table[name] = scores(read_set(name, extractor_for))
        row = " ".join(f"{v} {f:.4f}" for v, f in table[name].items())
        print(f"{name}: {row}", file=sys.stderr, flush=True)
    print("| set | shipped | " + " | ".join(VARIANTS) + " |")
    print("|---|---:|" + "---:|" * len(VARIANTS))
    for name, row in table.items():
        cells = [f"{row['shipped']:.4f}"]
        cells += [f"{row[v]:.4f} ({row[v] - row['shipped']:+.4f})" for v in VARIANTS]
        print(f"| {name} | " + " | ".join(cells) + " |")
    for label, group in (("training", SHIPPED_TRAINING_SETS), ("unseen", EVALUATION_ONLY_SETS)):
        if all(n in table for n in group):
            cells = [
                f"{sum(table[n][v] for n in group) / len(group):.4f}"
                for v in ("shipped", *VARIANTS)
            ]
            print(f"| {label} mean | " + " | ".join(cells) + " |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
