#!/usr/bin/env python
"""The language-model labelers (``lm``, ``lm_fast``) measured: site-grouped
cross-validation on the training sets, then the shipped configuration on the six sets no
model of ours trains on.

    python -m benchmarks.lm_eval [--model lm|lm_fast] [--pooling mean|cls] [--folds 4]
    python -m benchmarks.lm_eval --model lm_fast --config '{"class_weight": "balanced"}'

1. The labelled pages of the sets that may train the shipped model (of ``--page-types``
   where a set names them: WCXB's article pages, as the shipped models) are split into
   folds by site (as ``benchmarks/grouped_cv.py``); for each fold the regression is fit
   on the other folds, exported, and the ``lm`` / ``lm_fast`` extractor with it extracts
   the fold's pages of those types, scored as ``scrapy-boilerplate evaluate`` scores them.
2. A model fit on every training page (what ``scrapy-boilerplate train --model lm``
   makes) extracts the six evaluation-only sets; block accuracy / P / R / F1 of its
   classifier against the automatic block labels (the thesis's measure) and token F1 of
   the extractor are reported.

The sentence encoder's vectors are computed once per set and kept in ``--cache``
(:mod:`scrapy_boilerplate.training.lm_cache`, float16); the extractor reads them through
the encoder's memo, so the extraction is the real chain with the stored vectors in place
of a second encoder pass. Writes ``benchmarks/out/lm/<model>/results.json``.
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import replace
from pathlib import Path

import numpy as np

from benchmarks.grouped_cv import DATA, ROOT, FoldPages, best_others, fold_of, log
from scrapy_boilerplate.evaluation.datasets import open_dataset
from scrapy_boilerplate.evaluation.evaluate import RunnerResult, run_page
from scrapy_boilerplate.evaluation.runners import chain_runner
from scrapy_boilerplate.neural.lm_encoder import get_encoder
from scrapy_boilerplate.training.dataset import EVALUATION_ONLY_SETS, SHIPPED_TRAINING_SETS
from scrapy_boilerplate.training.lm import (
    LMConfig,
    cache_vectors,
    distill_static_table,
    evaluate_blocks,
    export_lm,
    fit_classifier,
    load_pages,
    page_rows,
    page_vocabulary,
    static_vectors,
)
from scrapy_boilerplate.training.lm_cache import encode_dataset

OUT = ROOT / "benchmarks" / "out" / "lm"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", type=Path, default=DATA)
    parser.add_argument("--out", type=Path, default=OUT)
    parser.add_argument("--cache", type=Path, default=ROOT / "benchmarks" / "out" / "lm_cache")
    parser.add_argument("--model", choices=("lm", "lm_fast"), default="lm")
    parser.add_argument("--pooling", choices=("mean", "cls"), default="mean")
    parser.add_argument("--folds", type=int, default=4)
    parser.add_argument("--static-dims", type=int, default=LMConfig.static_dims)
    parser.add_argument(
        "--refine",
        type=float,
        default=LMConfig.refine,
        metavar="WEIGHT",
        help="lm_fast: refine the token vectors on the training texts' encoder vectors "
        "(ridge weight; training.lm.refine_token_vectors) before PCA and SIF; 0: not "
        f"refined (default {LMConfig.refine}, the shipped model's)",
    )
    parser.add_argument(
        "--config",
        type=json.loads,
        default={},
        help="a JSON object of LMConfig fields to change (a variant: C, class_weight, "
        "threshold, ...); its results go to a folder of their own",
    )
    parser.add_argument("--no-cv", action="store_true", help="skip the cross-validation")
    parser.add_argument(
        "--in-domain",
        action="store_true",
        help="the thesis's setting instead: train on half of cleaneval-train, score the "
        "other half's blocks (an experiment: CleanEval may not train a shipped model)",
    )
    parser.add_argument("--train-sets", default=",".join(SHIPPED_TRAINING_SETS))
    parser.add_argument("--eval-sets", default=",".join(EVALUATION_ONLY_SETS))
    parser.add_argument(
        "--page-types",
        default="article",
        help="page types to train on and to score in the folds, for sets that name them "
        "(wcxb-dev); '' for all (default article, as the shipped models)",
    )
    args = parser.parse_args(argv)
    page_types = [t for t in args.page_types.split(",") if t] or None
    fast = args.model == "lm_fast"
    config = replace(LMConfig(pooling=args.pooling, static_dims=args.static_dims), **args.config)
    out = args.out / (
        f"{args.model}-{args.static_dims}" if fast else f"{args.model}-{args.pooling}"
    )
    if fast and args.refine:
        out = out.with_name(f"{out.name}-refined-{args.refine:g}")
    out = out.with_name(out.name + "".join(f"-{k}-{v}" for k, v in sorted(args.config.items())))

    if args.in_domain:
        return in_domain(args, config, log)
    train_sets = [args.data / n for n in args.train_sets.split(",") if n]
    eval_sets = [args.data / n for n in args.eval_sets.split(",") if n]
    encoder = get_encoder(1)
    encoder.memo_limit = None  # every stored vector stays: the chain finds them all
    caches = {}
    for d in [] if fast else train_sets + eval_sets:  # lm_fast needs no encoder vectors
        types = page_types if d in train_sets else None
        caches[d.name] = encode_dataset(encoder, d, args.cache, log=log, page_types=types)
        if not fast:
            c = caches[d.name]
            encoder.remember(c.texts, c.cls if args.pooling == "cls" else c.mean, args.pooling)
    vocabulary = page_vocabulary(train_sets, page_types)
    pages = load_pages(train_sets, vocabulary, page_types, log=log)
    table = None
    if fast:
        refine = None
        if args.refine:  # the encoder's vectors of the training texts
            known = [
                encode_dataset(encoder, d, args.cache, log=log, page_types=page_types)
                for d in train_sets
            ]
            targets = np.concatenate([np.asarray(c.mean, np.float32) for c in known])
            refine = ([t for c in known for t in c.texts], targets, args.refine)
        texts = (t for page in pages.texts for t in page)
        table = distill_static_table(encoder, texts, config.static_dims, log, refine=refine)
        vectors = static_vectors(table, out / "scratch")
    else:
        vectors = cache_vectors(caches.values(), args.pooling)

    def fit_export(subset_pages, model_dir: Path, facts: dict) -> None:
        x, y, _ = page_rows(subset_pages, vectors)
        w, b = fit_classifier(x, y, config)
        export_lm(model_dir, fast, vocabulary, w, b, config, facts, table)

    report: dict = {
        "model": args.model,
        "pooling": "static" if fast else args.pooling,
        "page_types": page_types or "all",
    }
    if not args.no_cv:
        page_fold = np.array([fold_of(site, args.folds) for site in pages.sites])
        cv = {
            s.name: RunnerResult(f"{args.model} (cross-validated)", "ours", None)
            for s in train_sets
        }
        block_cv = []
        for fold in range(args.folds):
            train = np.flatnonzero(page_fold != fold)
            held = np.flatnonzero(page_fold == fold)
            model_dir = out / f"fold{fold}"
            fit_export(pages.subset(train), model_dir, {"cross_validation": [fold, args.folds]})
            meta = json.loads((model_dir / (f"{args.model}.json")).read_text())
            w, b = np.asarray(meta["weights"], np.float32), meta["bias"]
            block_cv.append(evaluate_blocks(pages.subset(held), vectors, w, b, config.threshold))
            runner = chain_runner([{args.model: {"model_dir": str(model_dir)}}], args.model)
            for s in train_sets:
                for page in FoldPages(open_dataset(s), fold, args.folds).iter_pages():
                    kind = page.extras.get("page_type")
                    if page_types is None or kind is None or kind in page_types:
                        cv[s.name].pages.append(run_page(runner, page, "auto"))
            log(f"fold {fold}: blocks {block_cv[-1]}")
        best = best_others(ROOT / "benchmarks" / "out" / "quality.json")
        report["cross_validated"] = {}
        for name, result in cv.items():
            result.finish(n_bootstrap=200)
            summary = result.shingles or result.snippets
            report["cross_validated"][name] = {
                "f1": summary.f1,
                "pages": len(result.pages),
                "best_other": best.get(name),
            }
            log(f"cv {name}: token F1 {summary.f1:.3f} ({len(result.pages)} pages)")
    final = out / "final"
    fit_export(pages, final, {})
    meta = json.loads((final / f"{args.model}.json").read_text())
    w, b = np.asarray(meta["weights"], np.float32), meta["bias"]
    runner = chain_runner([{args.model: {"model_dir": str(final)}}], args.model)
    report["unseen"] = {}
    for d in eval_sets:
        held = load_pages([d], vocabulary)
        held_vectors = vectors if fast else cache_vectors([caches[d.name]], args.pooling)
        blocks = evaluate_blocks(held, held_vectors, w, b, config.threshold)
        result = RunnerResult(args.model, "ours", None)
        for page in open_dataset(d).iter_pages():
            result.pages.append(run_page(runner, page, "auto"))
        result.finish(n_bootstrap=200)
        summary = result.shingles or result.snippets
        ms = float(np.median([p.ms for p in result.pages]))
        report["unseen"][d.name] = {"f1": summary.f1, "blocks": blocks, "median_ms": ms}
        log(f"{d.name}: token F1 {summary.f1:.3f}, blocks {blocks}")
    out.mkdir(parents=True, exist_ok=True)
    (out / "results.json").write_text(json.dumps(report, indent=1) + "\n", encoding="utf-8")
    print(json.dumps(report, indent=1))
    return 0


def in_domain(args: argparse.Namespace, config: LMConfig, log) -> int:
    """Block metrics on half B of cleaneval-train for a regression fit on half A (the
    halves of benchmarks/cleaneval_in_domain.py: parity of a hash of the page id)."""
    import hashlib

    source = args.data / "cleaneval-train"
    encoder = get_encoder(1)
    vocabulary = page_vocabulary([source])
    pages = load_pages([source], vocabulary, log=log)
    half = np.array(
        [int(hashlib.sha1(n.split("/", 1)[1].encode()).hexdigest(), 16) % 2 for n in pages.names]
    )
    if args.model == "lm_fast":
        texts = (t for page in pages.subset(np.flatnonzero(half == 0)).texts for t in page)
        table = distill_static_table(encoder, texts, config.static_dims, log)
        vectors = static_vectors(table, args.out / "scratch")
    else:
        vectors = cache_vectors(
            [encode_dataset(encoder, source, args.cache, log=log)], args.pooling
        )
    x, y, _ = page_rows(pages.subset(np.flatnonzero(half == 0)), vectors)
    w, b = fit_classifier(x, y, config)
    test = pages.subset(np.flatnonzero(half == 1))
    metrics = evaluate_blocks(test, vectors, w, b, config.threshold)
    print(
        json.dumps(
            {
                "model": args.model,
                "trained_pages": int((half == 0).sum()),
                "test_pages": len(test),
                "blocks": metrics,
            },
            indent=1,
        )
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
