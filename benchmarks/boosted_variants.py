#!/usr/bin/env python
"""The default extractor's options side by side, on the fold models and the unseen sets.

    python -m benchmarks.grouped_cv --model boosted        # the fold models, first
    python -m benchmarks.boosted_variants --variant '{"drop_footers": false}' [--unseen]

Each ``--variant`` is a JSON object of :func:`scrapy_boilerplate.neural.boosted.boosted`
arguments (decoding options: thresholds, ``favor``, ``drop_footers``, the rescues); the
shipped options run beside them. Scored as every ``boosted`` choice: the four training
sets cross-validated by site (each fold's pages extracted with the model of
``benchmarks.grouped_cv`` that never saw their site; token F1, snippet F1 for
trafilatura-eval), then (``--unseen``) the shipped model on the six sets no model
trained on. Paired: every variant reads the same pages with the same trees, so
differences far below the noise of a refit show. Not a test: nothing is asserted.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

import numpy as np

from scrapy_boilerplate.evaluation.datasets import Dataset, open_dataset
from scrapy_boilerplate.evaluation.evaluate import PageResult, RunnerResult, run_page
from scrapy_boilerplate.evaluation.runners import Runner, chain_runner
from scrapy_boilerplate.filters.base import set_flags
from scrapy_boilerplate.neural.boosted import (
    SUMMARY_FLOOR,
    BlockScores,
    BoostedLabeler,
    content_runs,
    raised_to_seed,
)
from scrapy_boilerplate.training.dataset import EVALUATION_ONLY_SETS, SHIPPED_TRAINING_SETS

from .grouped_cv import OUT, FoldPages

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT.parent / "shared" / "data"


#: a variant: the runner for a model directory (None: the shipped model)
RunnerFor = Callable[[str | None], Runner]


def set_f1(pages: Iterable[PageResult]) -> float:
    """The set's F1 of some pages' results, as the evaluate command computes it."""
    result = RunnerResult("variant", "ours", None)
    result.pages.extend(pages)
    result.finish(n_bootstrap=0)
    return (result.shingles or result.snippets).f1


def score(pages: list[tuple[Any, Any]]) -> float:
    """The set's F1 of (runner, page) pairs, as the evaluate command computes it."""
    return set_f1(run_page(runner, page, "auto") for runner, page in pages)


def fold_pairs(
    base: Dataset, runner_for: RunnerFor, folds_dir: Path, folds: int = 4
) -> list[tuple[Runner, Any]]:
    """Every page of ``base`` with the runner of the fold model that never saw its site
    (``benchmarks.grouped_cv``'s models in ``folds_dir``)."""
    pairs = []
    for k in range(folds):
        runner = runner_for(str(folds_dir / f"fold{k}"))
        pairs.extend((runner, page) for page in FoldPages(base, k, folds).iter_pages())
    return pairs


def print_row(name: str, figures: list[float], labels: list[str]) -> None:
    cells = "  ".join(
        f"{label} {f:.4f} ({f - figures[0]:+.4f})" for label, f in zip(labels, figures, strict=True)
    )
    print(f"{name:22s} {cells}", flush=True)


def options_runner(options: dict[str, Any]) -> RunnerFor:
    """The variant of ``boosted(**options)``."""

    def runner_for(model_dir: str | None) -> Runner:
        spec = dict(options, **({"model_dir": model_dir} if model_dir else {}))
        return chain_runner([{"boosted": spec}], "boosted")

    return runner_for


class ScoresLabeler(BoostedLabeler):
    """The default labeler whose trees' scores a subclass turns into the blocks' flags
    (:meth:`apply`): the preamble every experiment's labeler shares."""

    def apply(self, doc: Any, scores: BlockScores) -> bool:
        """Set the blocks' flags from ``scores``; True if any changed."""
        raise NotImplementedError

    def __call__(self, doc: Any) -> bool:
        self.model()  # (a model that cannot load says so on any page)
        if not doc.blocks:
            return False
        return self.apply(doc, self.scored(doc))


class SeedingLabeler(ScoresLabeler):
    """The default labeler with one more seed of its runs: the tree-decided block (a
    position in ``scores.rows``) that :meth:`seed_row` names counts as reaching the seed
    threshold where the trees give it ``floor`` or more (the summary seed's shape, for
    other anchors)."""

    floor = SUMMARY_FLOOR

    def seed_row(self, doc: Any, scores: Any) -> int:
        """The row to seed, or -1."""
        raise NotImplementedError

    def apply(self, doc: Any, scores: BlockScores) -> bool:
        row = self.seed_row(doc, scores)
        probability = raised_to_seed(scores.probability, row, scores.threshold, self.floor)
        return scores._replace(probability=probability).decide(doc.blocks, scores.threshold)


class DecodingLabeler(ScoresLabeler):
    """The default labeler, its trees' scores decoded as a variant says: a subclass
    reads its variant (the string the command line names) in :meth:`parse` and gives
    every block's decision in :meth:`decisions`."""

    def __init__(self, model_dir: str | None, variant: str) -> None:
        super().__init__(model_dir)
        self.variant = self.parse(variant)

    @classmethod
    def parse(cls, variant: str) -> Any:
        """The variant's parameters (a bad variant raises ValueError)."""
        raise NotImplementedError

    def decisions(self, doc: Any, scores: BlockScores) -> np.ndarray:
        """Per block whether it is content."""
        raise NotImplementedError

    def apply(self, doc: Any, scores: BlockScores) -> bool:
        return set_flags(doc.blocks, self.decisions(doc, scores).tolist())


def runs_cut_at(scores: BlockScores, breaks: np.ndarray) -> np.ndarray:
    """Per block whether it is content: the shipped runs decoding with runs also ended at
    ``breaks`` (one per pair of consecutive tree-decided blocks), then
    :meth:`BlockScores.every_block`."""
    decided = content_runs(
        scores.probability, scores.threshold, scores.grow_threshold, scores.excluded, breaks
    )
    return scores.every_block(decided)


def decoding_main(
    argv: list[str] | None, description: str, labeler: type[DecodingLabeler], defaults: str
) -> int:
    """:func:`variants_main` for variants that are a :class:`DecodingLabeler` of a
    variant string each (the shipped labeler first)."""

    def variant_runner(variant: str | None) -> RunnerFor:
        if variant is None:
            return labeler_runner(BoostedLabeler, "shipped")
        labeler.parse(variant)  # (a bad variant stops the run before anything is read)
        return labeler_runner(lambda model_dir: labeler(model_dir, variant), variant)

    return variants_main(argv, description, variant_runner, defaults)


def labeler_runner(
    make: Callable[[str | None], Any],
    name: str,
    adjust: Callable[[Any], None] | None = None,
) -> RunnerFor:
    """A variant whose labeler ``make(model_dir)`` builds (a ``BoostedLabeler`` or a
    subclass) in the default chain: the comment filter, the rescues, and
    ``DominantBlock`` with the same labeler; ``adjust(chain)``, if given, changes the
    chain's other filters before it runs."""
    from scrapy_boilerplate.extraction import Extractor
    from scrapy_boilerplate.neural.boosted import DominantBlock
    from scrapy_boilerplate.neural.filter import labeler_chain

    def runner_for(model_dir: str | None) -> Runner:
        labeler = make(model_dir)
        chain = labeler_chain(labeler, "boosted", True, None, True, True, DominantBlock(labeler))
        if adjust is not None:
            adjust(chain)
        ex = Extractor(chain, "boosted")
        return Runner(name, "ours", lambda html, url, lang: ex.extract(html, url).text)

    return runner_for


def article_model_runner(name: str) -> RunnerFor:
    """The default chain with a model directory's trees on every page (None: the shipped
    article model): the discussions model left out, as the fold models are read."""
    return labeler_runner(lambda model_dir: BoostedLabeler(model_dir, discussions=False), name)


def two_models_parser(description: str) -> argparse.ArgumentParser:
    """The command line of an experiment that reads some pages with a second
    configuration's models: ``OTHER_RUN`` (a ``benchmarks.boosted_static`` run's folder:
    fold models in ``boosted/``, the full model in ``all/``), ``--base`` (the default's
    fold models), ``--full-base`` (its full model; None: the shipped one), ``--unseen``
    and ``--folds``."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("other_run", type=Path, help="boosted_page_types' output folder")
    parser.add_argument("--base", type=Path, default=OUT / "boosted", help="default's folds")
    parser.add_argument("--full-base", default=None, help="default's full model (the shipped)")
    parser.add_argument("--unseen", action="store_true", help="also the six unseen sets")
    parser.add_argument("--folds", type=int, default=4)
    return parser


def decoding_parser(description: str) -> argparse.ArgumentParser:
    """The command line of a decoding experiment: ``--unseen``, ``--skip-cv`` and
    ``--folds-dir`` (the fold models of ``benchmarks.grouped_cv``)."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--unseen", action="store_true", help="also the six unseen sets")
    parser.add_argument("--skip-cv", action="store_true", help="only the unseen sets")
    parser.add_argument(
        "--folds-dir", type=Path, default=OUT / "boosted", help="grouped_cv's fold models"
    )
    return parser


def variants_main(
    argv: list[str] | None,
    description: str,
    variant_runner: Callable[[str | None], RunnerFor],
    default_variants: str,
) -> int:
    """The command line of a decoding experiment whose variants are named by strings
    (``--variants a,b``): each variant's runner (``variant_runner(None)`` is the shipped
    decoding, the first column) compared as :func:`compare` does."""
    parser = decoding_parser(description)
    parser.add_argument("--variants", default=default_variants)
    args = parser.parse_args(argv)
    variants: list[str | None] = [None, *args.variants.split(",")]
    labels = [v or "shipped" for v in variants]
    runners = [variant_runner(v) for v in variants]
    compare(runners, labels, folds_dir=args.folds_dir, cv=not args.skip_cv, unseen=args.unseen)
    return 0


def compare(
    variants: list[RunnerFor],
    labels: list[str],
    data: Path = DATA,
    folds_dir: Path = OUT / "boosted",
    folds: int = 4,
    cv: bool = True,
    unseen: bool = False,
) -> None:
    """Print each variant's F1 per set beside the first's: the training sets on the fold
    models (``cv``), the unseen sets on the shipped model (``unseen``)."""
    groups: list[tuple[str, list[str], bool]] = []
    if cv:
        groups.append(("cross-validated by site", list(SHIPPED_TRAINING_SETS), True))
    if unseen:
        groups.append(("unseen sets (the shipped model)", sorted(EVALUATION_ONLY_SETS), False))
    for title, names, by_fold in groups:
        print(title)
        means: list[list[float]] = []
        for name in names:
            base = open_dataset(data / name)
            figures = []
            for runner_for in variants:
                pairs = (
                    fold_pairs(base, runner_for, folds_dir, folds)
                    if by_fold
                    else [(runner_for(None), page) for page in base.iter_pages()]
                )
                figures.append(score(pairs))
            means.append(figures)
            print_row(name, figures, labels)
        print_row("mean", list(np.mean(means, axis=0)), labels)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", type=Path, default=DATA)
    parser.add_argument("--folds-dir", type=Path, default=OUT / "boosted")
    parser.add_argument("--folds", type=int, default=4)
    parser.add_argument("--variant", action="append", type=json.loads, default=[])
    parser.add_argument("--unseen", action="store_true")
    parser.add_argument("--skip-cv", action="store_true")
    args = parser.parse_args(argv)
    variants = [options_runner({}), *map(options_runner, args.variant)]
    labels = ["shipped"] + [json.dumps(v, sort_keys=True) for v in args.variant]
    compare(variants, labels, args.data, args.folds_dir, args.folds, not args.skip_cv, args.unseen)
    return 0


if __name__ == "__main__":
    sys.exit(main())
