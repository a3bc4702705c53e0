#!/usr/bin/env python
"""Pages that declare a discussion read by a model trained on every kind of page.

    python -m benchmarks.boosted_discussions OTHER_RUN [--base FOLDS_DIR] \\
        [--full-base DIR] [--unseen]

A page that declares itself a discussion (schema.org's ``DiscussionForumPosting`` or
``QAPage`` in JSON-LD or microdata:
:func:`~scrapy_boilerplate.filters.comments.declares_discussion`, the comment filter's
test) is a forum thread or a question and its answers; on wcxb-dev 74 pages do, every
one of them a forum, and no page of the six unseen sets does. The default's trees learn
from articles and trail on forums; the trees of ``benchmarks.boosted_page_types``
(``OTHER_RUN``, its output folder: fold models in ``boosted/``, the full model in
``all/``) learn from every type. Here those pages take the other model's extraction and
every other page keeps the default's: cross-validated by site (a page of fold k by
either configuration's fold k), and with ``--unseen`` by the full models on the six
unseen sets. Not part of the package; the ``[train]`` extra.
"""

from __future__ import annotations

import sys

from benchmarks.boosted_variants import (
    DATA,
    article_model_runner,
    fold_pairs,
    set_f1,
    two_models_parser,
)
from scrapy_boilerplate.evaluation.datasets import open_dataset
from scrapy_boilerplate.evaluation.evaluate import PageResult, run_page
from scrapy_boilerplate.filters.comments import declares_discussion
from scrapy_boilerplate.parse import build_tree
from scrapy_boilerplate.training.dataset import EVALUATION_ONLY_SETS, SHIPPED_TRAINING_SETS


def markup_declares_discussion(html: str) -> bool:
    """Whether a page's markup declares a discussion (the package's test on its tree;
    ``filters.comments.page_declares_discussion`` asks the same of a parsed Document)."""
    return declares_discussion(build_tree(html)[0])


def gated(base: list[PageResult], other: dict[str, PageResult]) -> list[PageResult]:
    """``base``'s results, each page in ``other`` (the pages that declare a discussion)
    replaced by its result there."""
    return [other.get(r.id, r) for r in base]


def main(argv: list[str] | None = None) -> int:
    args = two_models_parser(__doc__.split("\n\n")[0]).parse_args(argv)
    runner_of = article_model_runner("boosted")

    def measure(name: str, base_pairs, other_pairs) -> tuple[float, float]:
        base = [run_page(runner, page, "auto") for runner, page in base_pairs]
        declared = {
            page.id: run_page(runner, page, "auto")
            for runner, page in other_pairs
            if markup_declares_discussion(page.html)
        }
        before, after = set_f1(base), set_f1(gated(base, declared))
        print(f"| {name} | {len(declared)} | {before:.4f} | {after:.4f} | {after - before:+.4f} |")
        return before, after

    def print_mean(label: str, figures: list[tuple[float, float]]) -> None:
        before, after = (sum(f[i] for f in figures) / len(figures) for i in (0, 1))
        print(f"| {label} | | {before:.4f} | {after:.4f} | {after - before:+.4f} |")

    print("| set | pages that declare a discussion | default | gated | change |")
    print("|---|---:|---:|---:|---:|")
    figures = []
    for name in SHIPPED_TRAINING_SETS:
        base_set = open_dataset(DATA / name)
        base_pairs = fold_pairs(base_set, runner_of, args.base, args.folds)
        other_pairs = fold_pairs(base_set, runner_of, args.other_run / "boosted", args.folds)
        figures.append(measure(name, base_pairs, other_pairs))
    print_mean("training sets' mean", figures)
    if args.unseen:
        base_runner = runner_of(args.full_base)
        other_runner = runner_of(str(args.other_run / "all"))
        figures = []
        for name in EVALUATION_ONLY_SETS:
            pages = list(open_dataset(DATA / name).iter_pages())
            base_pairs = [(base_runner, p) for p in pages]
            figures.append(measure(name, base_pairs, [(other_runner, p) for p in pages]))
        print_mean("unseen mean", figures)
    return 0


if __name__ == "__main__":
    sys.exit(main())
