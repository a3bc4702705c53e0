"""``scrapy-boilerplate train``: build the labelled corpus, train, export the ONNX model.

    scrapy-boilerplate train ../shared/data --model boosted --out scrapy_boilerplate/neural/models
    scrapy-boilerplate train ../shared/data --out scrapy_boilerplate/neural/models
    scrapy-boilerplate train ../shared/data --model context --out scrapy_boilerplate/neural/models
    scrapy-boilerplate train ../shared/data --model lm --out scrapy_boilerplate/neural/models

A folder holding dataset folders stands for the sets in it that may train the shipped
model (:data:`~scrapy_boilerplate.training.dataset.SHIPPED_TRAINING_SETS`); naming any
other set is refused unless ``--allow-any-set`` (for experiments that do not ship).
Needs the ``train`` extra (lightgbm and onnxmltools for ``boosted``; torch and onnx for
``web2text`` and ``context``; scikit-learn for ``lm`` / ``lm_fast``, which also need the
``lm`` extra).
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

__all__ = ["register", "resolve_sets"]


def resolve_sets(paths: list[str], allow_any: bool) -> list[Path]:
    """The dataset folders to train on (see the module docstring)."""
    from .dataset import SHIPPED_TRAINING_SETS

    out: list[Path] = []
    for raw in paths:
        p = Path(raw)
        if (p / "truth.jsonl").is_file():
            if p.resolve().name not in SHIPPED_TRAINING_SETS and not allow_any:
                raise SystemExit(
                    f"scrapy-boilerplate train: {p.name} may not train the shipped model "
                    f"(allowed: {', '.join(SHIPPED_TRAINING_SETS)}); use --allow-any-set "
                    "for an experiment"
                )
            out.append(p)
        elif p.is_dir():
            for name in SHIPPED_TRAINING_SETS:
                if (p / name / "truth.jsonl").is_file():
                    out.append(p / name)
        else:
            raise SystemExit(f"scrapy-boilerplate train: not a dataset folder: {p}")
    if not out:
        raise SystemExit("scrapy-boilerplate train: no training set found")
    return out


def _log(msg: str) -> None:
    print(f"[{time.strftime('%H:%M:%S')}] {msg}", file=sys.stderr, flush=True)


def _set_licences(sets: list[Path]) -> dict[str, str]:
    """Each training set's licence as the model records it."""
    from .dataset import SHIPPED_TRAINING_SETS

    return {
        s.resolve().name: SHIPPED_TRAINING_SETS.get(s.resolve().name, "not for shipping")
        for s in sets
    }


def _build_corpus(
    args: argparse.Namespace, build: Callable[..., Any]
) -> tuple[list[Path], list[str] | None, Any, float] | None:
    """The command line's training sets and page types, the labelled corpus ``build``
    makes of them, and when the build started; None (said on stderr) when fewer than two
    pages are usable."""
    sets = resolve_sets(args.datasets, args.allow_any_set)
    _log("training sets: " + ", ".join(str(s) for s in sets))
    t0 = time.time()
    page_types = [t for t in args.page_types.split(",") if t] if args.page_types else None
    corpus = build(
        sets,
        limit=args.limit,
        processes=args.processes,
        cache=args.cache,
        log=_log,
        page_types=page_types,
    )
    _log(f"corpus: {len(corpus)} pages, {len(corpus.labels)} blocks ({time.time() - t0:.0f}s)")
    if len(corpus) < 2:
        print("scrapy-boilerplate train: fewer than two usable pages", file=sys.stderr)
        return None
    return sets, page_types, corpus, t0


def _corpus_facts(
    sets: list[Path], datasets: list[str], labels: Any, page_types: list[str] | None
) -> dict[str, Any]:
    """What a model records of its training corpus: the sets and their licences, pages per
    set, page types, blocks (labelled, content) and the command line."""
    per_set: dict[str, int] = {}
    for name in datasets:
        per_set[name] = per_set.get(name, 0) + 1
    return {
        "sets": _set_licences(sets),
        "pages_per_set": per_set,
        "page_types": page_types or "all",
        "blocks": int(len(labels)),
        "labelled_blocks": int((labels >= 0).sum()),
        "content_blocks": int((labels == 1).sum()),
        "command": _command_line(),
    }


def _command_line() -> str:
    return "scrapy-boilerplate train " + " ".join(sys.argv[2:] if len(sys.argv) > 2 else [])


def _train_lm(args: argparse.Namespace) -> int:
    from ..errors import ModelUnavailableError
    from .lm import LMConfig, train_lm

    try:
        import sklearn  # noqa: F401
    except ImportError:
        print(
            "scrapy-boilerplate train: needs scikit-learn: "
            "pip install 'scrapy-boilerplate-removal[train,lm]'",
            file=sys.stderr,
        )
        return 2
    sets = resolve_sets(args.datasets, args.allow_any_set)
    page_types = [t for t in args.page_types.split(",") if t] if args.page_types else None
    facts = {"sets": _set_licences(sets), "command": _command_line()}
    # (None: LMConfig's own weight; 0: the table as distilled)
    refine = {} if args.refine is None else {"refine": args.refine or None}
    try:
        info = train_lm(
            sets,
            args.out,
            args.model == "lm_fast",
            LMConfig(pooling=args.pooling, static_dims=args.static_dims, **refine),
            cache_dir=args.cache,
            page_types=page_types,
            threads=args.threads,
            facts=facts,
            log=_log,
        )
    except ModelUnavailableError as exc:
        print(f"scrapy-boilerplate train: {exc}", file=sys.stderr)
        return 2
    except ValueError as exc:
        print(f"scrapy-boilerplate train: {exc}", file=sys.stderr)
        return 1
    print(f"training blocks {info['training_block_metrics']}")
    return 0


def _train_boosted(args: argparse.Namespace) -> int:
    try:
        import lightgbm  # noqa: F401
        import onnxmltools  # noqa: F401
    except ImportError:
        print(
            "scrapy-boilerplate train: needs lightgbm and onnxmltools: "
            "pip install 'scrapy-boilerplate-removal[train]'",
            file=sys.stderr,
        )
        return 2
    from .boosted import (
        BoostedConfig,
        build_boosted_corpus,
        export_boosted,
        train_boosted,
        training_metrics,
    )

    built = _build_corpus(args, build_boosted_corpus)
    if built is None:
        return 1
    sets, page_types, corpus, _ = built
    cfg = BoostedConfig(
        seed=args.seed, threads=args.threads, other_page_weight=args.other_page_weight
    )
    try:
        model = train_boosted(corpus, cfg, log=_log)
    except ValueError as exc:
        print(f"scrapy-boilerplate train: {exc}", file=sys.stderr)
        return 1
    metrics = training_metrics(model, corpus, cfg)
    extra = _corpus_facts(sets, corpus.datasets, corpus.labels, page_types)
    extra["training_block_metrics"] = metrics
    paths = export_boosted(model, args.out, cfg, extra)
    _log("wrote " + ", ".join(str(p) for p in paths.values()))
    print(f"training blocks (in-sample) {metrics}")
    return 0


def _train_command(args: argparse.Namespace) -> int:
    if args.model in ("lm", "lm_fast"):
        return _train_lm(args)
    if args.model == "boosted":
        return _train_boosted(args)
    try:
        import torch  # noqa: F401
    except ImportError:
        print(
            "scrapy-boilerplate train: needs torch and onnx: pip install 'scrapy-boilerplate-removal[train]'",
            file=sys.stderr,
        )
        return 2
    from .dataset import build_corpus
    from .train import TrainConfig, export_onnx, train_models

    log = _log
    built = _build_corpus(args, build_corpus)
    if built is None:
        return 1
    sets, page_types, corpus, t0 = built
    extra = _corpus_facts(sets, corpus.datasets, corpus.labels, page_types)
    if args.model == "context":
        return _train_context(args, sets, corpus, extra, t0, log)
    cfg = TrainConfig(
        seed=args.seed,
        steps=args.steps,
        threads=args.threads,
        patience=args.patience,
        eval_every=args.eval_every,
        batch=args.batch,
        extended=not args.no_extension,
    )
    result = train_models(corpus, cfg, log=log)
    extra["seconds"] = round(time.time() - t0)
    paths = export_onnx(result, args.out, extra)
    log("wrote " + ", ".join(str(p) for p in paths.values()))
    print(f"lambda {result.lam}; validation {result.metrics['validation']}")
    return 0


def _train_context(
    args: argparse.Namespace,
    sets: list[Path],
    corpus: Any,
    extra: dict[str, Any],
    t0: float,
    log: Any,
) -> int:
    from .context import ContextConfig, export_context, train_context
    from .dataset import site_groups

    cfg = ContextConfig(
        seed=args.seed,
        members=args.members,
        epochs=args.epochs,
        threads=args.threads,
    )
    result = train_context(corpus, site_groups(sets, corpus), cfg, log=log)
    extra["seconds"] = round(time.time() - t0)
    paths = export_context(result, args.out, extra)
    log("wrote " + ", ".join(str(p) for p in paths.values()))
    print(f"threshold {result.threshold}; validation {result.metrics.get('validation')}")
    return 0


def register(subparsers: Any) -> argparse.ArgumentParser:
    """Add the ``train`` subcommand."""
    p = subparsers.add_parser(
        "train",
        help="train a labeler's model: boosted, web2text, context, lm or lm_fast (needs the "
        "train extra)",
        description="Label blocks automatically, train the boosted trees (--model boosted, "
        "the default extractor's), the Web2Text unary and pairwise networks (--model "
        "web2text) or the whole-page context labeler (--model context), and export them "
        "to ONNX.",
    )
    p.add_argument(
        "--model",
        choices=("boosted", "web2text", "context", "lm", "lm_fast"),
        default="web2text",
        help="which model to train (default web2text); boosted needs lightgbm and "
        "onnxmltools, lm and lm_fast the lm extra and scikit-learn, not torch",
    )
    p.add_argument(
        "--pooling",
        choices=("mean", "cls"),
        default="mean",
        help="lm: the encoder's vector of a block: mean of its tokens (default) or [CLS]",
    )
    p.add_argument(
        "datasets",
        nargs="+",
        metavar="DATASET",
        help="dataset folder(s), or a folder of them (its allowed sets are used)",
    )
    p.add_argument("--out", "-o", required=True, help="directory for the model files")
    p.add_argument(
        "--seed", type=int, default=0, help="random seed (default 0; lm, lm_fast: none used)"
    )
    p.add_argument(
        "--static-dims",
        type=int,
        default=384,
        help="lm_fast: width of the distilled token table (default 384)",
    )
    p.add_argument(
        "--refine",
        type=float,
        default=None,
        metavar="WEIGHT",
        help="lm_fast: refine the token vectors on the encoder's vectors of the training "
        "texts, with this ridge weight (default 0.01, the shipped model's; 0: distilled only)",
    )
    p.add_argument("--steps", type=int, default=8000, help="web2text: maximum steps per network")
    p.add_argument("--members", type=int, default=1, help="context: ensemble members (default 1)")
    p.add_argument("--epochs", type=int, default=6, help="context: epochs per member (default 6)")
    p.add_argument(
        "--batch", type=int, default=128, help="web2text: windows per batch (default 128)"
    )
    p.add_argument(
        "--eval-every", type=int, default=100, help="web2text: steps between validations"
    )
    p.add_argument(
        "--patience",
        type=int,
        default=25,
        help="web2text: validations without gain before stopping (default 25)",
    )
    p.add_argument("--limit", type=int, default=None, help="only the first N pages of each set")
    p.add_argument("--processes", type=int, default=1, help="processes building the corpus")
    p.add_argument(
        "--threads",
        type=int,
        default=2,
        help="torch (lm: onnxruntime, boosted: lightgbm) threads (default 2)",
    )
    p.add_argument(
        "--cache",
        default=None,
        help="directory to cache the labelled corpus (lm: the encoder's vectors; lm_fast: "
        "also its distilled table, in lm_fast_table/) in; the corpus is made again when the "
        "data, the page types or the package's code change (lm's vectors: the data or the "
        "encoder)",
    )
    p.add_argument(
        "--page-types",
        default=None,
        metavar="TYPES",
        help="comma-separated page types to train on, for sets that label them (wcxb-dev: "
        "article, forum, listing, product, ...); pages of other sets are all used "
        "(default: every type)",
    )
    p.add_argument(
        "--other-page-weight",
        type=float,
        default=1.0,
        metavar="W",
        help="boosted: the weight of the blocks of pages of a type other than article "
        "(wcxb-dev's forums, listings, ...) against an article's (default 1; 0.3 trained "
        "the discussions model)",
    )
    p.add_argument(
        "--no-extension",
        action="store_true",
        help="web2text: Web2Text's 128 block / 25 edge features only (no class/id words)",
    )
    p.add_argument(
        "--allow-any-set",
        action="store_true",
        help="allow sets that may not train the shipped model (experiments)",
    )
    p.set_defaults(func=_train_command)
    return p
