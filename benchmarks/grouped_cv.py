#!/usr/bin/env python
"""Cross-validation of a learned labeler on the sets it trains on, grouped by site.

    python -m benchmarks.grouped_cv [--model boosted|context|web2text] [--folds 4] [--threads 2]
    python -m benchmarks.grouped_cv --model boosted --config '{"short_words": 6}'

The pages of the four sets that may train the shipped model (``SHIPPED_TRAINING_SETS``)
are split into ``--folds`` folds by site (a site's pages, in any set, share a fold). For
each fold a model is trained, with the shipped configuration (and, as it, on WCXB's
article pages only), on the other folds and exported; the extractor (``boosted``,
``context`` or ``web2text``) with that model then extracts the fold's pages, and every page is scored as ``scrapy-boilerplate evaluate`` scores it (token-shingle F1;
snippet F1 for trafilatura-eval). So each page's figure comes from a model that never saw
its site. The table puts beside it the best other library on the same whole set, from
the quality benchmark's results (``benchmarks/out/quality.json``, when present).

``--config`` (boosted) changes fields of ``BoostedConfig`` for a variant; its fold models
and results go to ``<out>/boosted-<field>-<value>...`` beside the shipped configuration's.
``--discussion-folds DIR`` (boosted) reads the pages that declare a discussion with
another run's model of the same fold (``DIR/foldK``), as the shipped default reads them
with its discussions model (``python -m benchmarks.boosted_page_types --other-weight 0.3
--seed N`` makes such folds, in its ``boosted/``); the run's name ends in
``+discussions``. Without it the article model reads every page.

Needs the ``[train]`` extra (lightgbm and onnxmltools for ``boosted``, torch for the others). Writes ``benchmarks/out/grouped_cv/<model>/`` (the
fold models, ``results.json``) and prints the Markdown table.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
import time
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np

from benchmarks import forked_corpus_workers
from scrapy_boilerplate.evaluation.datasets import Dataset, Page, open_dataset
from scrapy_boilerplate.evaluation.evaluate import RunnerResult, run_page
from scrapy_boilerplate.evaluation.runners import chain_runner
from scrapy_boilerplate.training.boosted import (
    BoostedConfig,
    build_boosted_corpus,
    export_boosted,
    train_boosted,
)
from scrapy_boilerplate.training.context import ContextConfig, export_context, train_context
from scrapy_boilerplate.training.dataset import (
    SHIPPED_TRAINING_SETS,
    build_corpus,
    site_groups,
    site_of,
)
from scrapy_boilerplate.training.train import TrainConfig, export_onnx, train_models

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT.parent / "shared" / "data"
OUT = ROOT / "benchmarks" / "out" / "grouped_cv"
#: the libraries the issue compares with (benchmarks/quality.py runner names)
OTHERS = ("trafilatura", "trafilatura_no_comments", "readability", "resiliparse", "justext")


def fold_of(site: str, folds: int) -> int:
    """A site's fold: a stable hash, so the split does not depend on the order of pages."""
    return int(hashlib.sha256(site.encode()).hexdigest(), 16) % folds


#: the end of a run's folder name when declared discussions were read by other folds'
#: models (``--discussion-folds``: the default as shipped)
DISCUSSIONS_SUFFIX = "+discussions"


def run_folder(model: str, config: dict[str, Any], discussions: bool = False) -> str:
    """The folder of a run under ``--out``: :func:`run_name_of`, and
    :data:`DISCUSSIONS_SUFFIX` with ``--discussion-folds`` (what the quality report
    reads)."""
    return run_name_of(model, config) + (DISCUSSIONS_SUFFIX if discussions else "")


def run_name_of(model: str, config: dict[str, Any]) -> str:
    """The folder name of a run: the model and the changed configuration fields, or (for
    a long value, such as a list of columns, that a file name cannot hold) a hash of
    them."""
    name = model + "".join(f"-{k}-{v}" for k, v in sorted(config.items()))
    if len(name) <= 100:
        return name
    digest = hashlib.sha256(json.dumps(config, sort_keys=True).encode()).hexdigest()
    return f"{model}-config-{digest[:12]}"


class FoldPages(Dataset):
    """The pages of a set whose site is in one fold."""

    kind = "jsonl"

    def __init__(self, base: Dataset, fold: int, folds: int) -> None:
        super().__init__(base.path, base.name)
        self.base, self.fold, self.folds = base, fold, folds

    def iter_pages(self, limit: int | None = None) -> Iterator[Page]:
        for page in self.base.iter_pages(limit):
            if fold_of(site_of(self.name, page.id, page.url), self.folds) == self.fold:
                yield page


def log(msg: str) -> None:
    """A timestamped progress line on stderr."""
    print(f"[{time.strftime('%H:%M:%S')}] {msg}", file=sys.stderr, flush=True)


def best_others(path: Path) -> dict[str, tuple[str, float]]:
    """Per set, the best other library's F1 in the quality benchmark's results."""
    if not path.is_file():
        return {}
    data = json.loads(path.read_text(encoding="utf-8"))
    best: dict[str, tuple[str, float]] = {}
    for ds in data["datasets"]:
        for ex in ds["extractors"]:
            if ex["extractor"] not in OTHERS:
                continue
            summary = ex.get("shingles") or ex.get("snippets") or {}
            score = summary.get("f1")
            if score is not None and score > best.get(ds["dataset"], ("", -1.0))[1]:
                best[ds["dataset"]] = (ex["extractor"], score)
    return best


def page_type_list(text: str) -> list[str] | None:
    """The page types of a comma-separated ``--page-types`` (None for all: '')."""
    return [t for t in text.split(",") if t] or None


def fold_spec(model: str, model_dir: Path, discussion_dir: Path | None = None) -> list[dict]:
    """The chain spec that reads a fold's pages: the fold's model, and (``boosted``, with
    ``--discussion-folds``) another run's model of the same fold for the pages that
    declare a discussion, as the shipped default reads them; without it, the fold's
    model reads every page."""
    options: dict[str, Any] = {"model_dir": str(model_dir)}
    if discussion_dir is not None:
        options["discussion_model_dir"] = str(discussion_dir)
    return [{model: options}]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", type=Path, default=DATA)
    parser.add_argument("--out", type=Path, default=OUT)
    parser.add_argument("--cache", type=Path, default=ROOT / "benchmarks" / "out" / "corpus")
    parser.add_argument("--model", choices=("boosted", "context", "web2text"), default="boosted")
    parser.add_argument("--folds", type=int, default=4)
    parser.add_argument("--members", type=int, default=1)
    parser.add_argument("--epochs", type=int, default=ContextConfig.epochs)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--config",
        type=json.loads,
        default={},
        help="boosted: a JSON object of BoostedConfig fields to change (a variant)",
    )
    parser.add_argument(
        "--page-types",
        default="article",
        help="page types to train on, as the shipped model (comma-separated; '' for all); "
        "every page of a held-out fold is scored, whatever its type",
    )
    parser.add_argument(
        "--discussion-folds",
        type=Path,
        default=None,
        help="boosted: the fold models (DIR/foldK) that read the pages that declare a "
        "discussion, as the shipped default's discussions model does (e.g. "
        "benchmarks.boosted_page_types' boosted/ with --other-weight 0.3)",
    )
    args = parser.parse_args(argv)
    if args.config and args.model != "boosted":
        parser.error("--config changes BoostedConfig: only with --model boosted")
    if args.discussion_folds and args.model != "boosted":
        parser.error("--discussion-folds: only with --model boosted")
    page_types = page_type_list(args.page_types)

    sets = [args.data / name for name in SHIPPED_TRAINING_SETS]
    if args.model == "boosted":
        with forked_corpus_workers():
            corpus = build_boosted_corpus(
                sets, cache=args.cache, log=log, page_types=page_types, processes=args.threads
            )
    else:
        corpus = build_corpus(sets, cache=args.cache, log=log, page_types=page_types)
    groups = site_groups(sets, corpus)
    page_fold = np.array([fold_of(site, args.folds) for site in groups])
    cfg = ContextConfig(
        seed=args.seed, members=args.members, epochs=args.epochs, threads=args.threads
    )
    label = f"{args.model} (cross-validated)"
    run_name = run_folder(args.model, args.config, discussions=bool(args.discussion_folds))
    results = {s.name: RunnerResult(label, "ours", None) for s in sets}
    for fold in range(args.folds):
        train = np.flatnonzero(page_fold != fold)
        log(f"fold {fold}: training on {len(train)} pages of the other folds")
        model_dir = args.out / run_name / f"fold{fold}"
        facts = {"cross_validation": {"fold": fold, "of": args.folds}}
        if args.model == "boosted":
            boosted_cfg = replace(
                BoostedConfig(seed=args.seed, threads=args.threads), **args.config
            )
            trees = train_boosted(corpus, boosted_cfg, pages=train, log=log)
            export_boosted(trees, model_dir, boosted_cfg, facts)
        elif args.model == "context":
            model = train_context(corpus.subset(train), [groups[p] for p in train], cfg, log)
            export_context(model, model_dir, facts)
        else:
            trained = train_models(
                corpus.subset(train), TrainConfig(seed=args.seed, threads=args.threads), log
            )
            export_onnx(trained, model_dir, facts)
        discussions = args.discussion_folds / f"fold{fold}" if args.discussion_folds else None
        runner = chain_runner(fold_spec(args.model, model_dir, discussions), args.model)
        for s in sets:
            for page in FoldPages(open_dataset(s), fold, args.folds).iter_pages():
                results[s.name].pages.append(run_page(runner, page, "auto"))
    best = best_others(ROOT / "benchmarks" / "out" / "quality.json")
    rows, dump = [], {}
    for name, result in results.items():
        result.finish(n_bootstrap=200)
        summary = result.shingles or result.snippets
        other, score = best.get(name, ("n/a", float("nan")))
        dump[name] = {"f1": summary.f1, "pages": len(result.pages), "best_other": [other, score]}
        rows.append(
            f"| {name} | {len(result.pages)} | {summary.f1:.3f} | {other} {score:.3f} "
            f"| {summary.f1 - score:+.3f} |"
        )
    (args.out / run_name).mkdir(parents=True, exist_ok=True)
    (args.out / run_name / "results.json").write_text(
        json.dumps(dump, indent=1) + "\n", encoding="utf-8"
    )
    shape = f", {cfg.members} member(s) x {cfg.epochs} epochs" if args.model == "context" else ""
    print(
        f"{run_name}, grouped by site, {args.folds} folds{shape}, "
        f"trained on page types: {args.page_types or 'all'}\n"
    )
    print(f"| set | pages | {label} | best other library | margin |")
    print("|---|---:|---:|---|---:|")
    print("\n".join(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
