#!/usr/bin/env python
"""Route each page to the article model or to a model for every kind of page, by a
classifier of the page's kind.

    python -m benchmarks.boosted_routing OTHER_RUN [--base FOLDS_DIR] [--full-base DIR] \\
        [--unseen] [--cuts 0.3,0.5,0.7,0.9] [--drop PREFIXES]

The default's trees learn from WCXB's article pages; trees trained on every type
(``benchmarks.boosted_page_types``: ``OTHER_RUN`` is its output folder, with the fold
models in ``boosted/`` and the full model in ``all/``) lead wcxb-dev on every page type
and lose on the news sets. Here a small classifier (LightGBM over page-level columns:
``benchmarks.boosted_page_kind``'s nine, Web2Text's 20 ``root_`` columns, the page's
block and word counts and link share) says how likely a page is not an article
(trained on wcxb-dev's page types), and a page whose probability reaches a cut goes to
the other model; every other page keeps the article model's extraction.

Cross-validated by site as every ``boosted`` choice: a page of fold k is routed by a
classifier trained on wcxb-dev's pages of the other folds and extracted by either
model's fold k (neither saw its site). ``--unseen``: the six unseen sets, routed by a
classifier on all of wcxb-dev and extracted by the full models (``--full-base``: the
shipped model by default). Each page is extracted by both models once (cached in
``benchmarks/out/boosted_routing/``); the cuts only choose. Not part of the package;
the ``[train]`` extra (LightGBM).

Measured 2026-11-29 (docs/neural.md), with ``boosted_page_types --other-weight 0.3``'s
models of seeds 0, 1 and 2: the training sets rise as with the every-type model alone
(by 0.004-0.008), the six unseen sets fall at every cut and seed (by 0.003-0.009): the
classifier takes news pages of other years and sites for forums and listings. Not kept.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import numpy as np

from benchmarks.boosted_page_kind import COLUMNS, page_kind_columns
from benchmarks.boosted_variants import DATA, article_model_runner, set_f1, two_models_parser
from benchmarks.grouped_cv import ROOT, FoldPages
from benchmarks.wcxb_page_types import page_types
from scrapy_boilerplate.evaluation.datasets import open_dataset
from scrapy_boilerplate.evaluation.evaluate import PageResult, run_page
from scrapy_boilerplate.neural.boosted_features import BOOSTED_FEATURES, boosted_features
from scrapy_boilerplate.parse import parse_html
from scrapy_boilerplate.training.dataset import EVALUATION_ONLY_SETS, SHIPPED_TRAINING_SETS

OUT = ROOT / "benchmarks" / "out" / "boosted_routing"
#: the page-level columns of the default's features (the same on every row)
PAGE_COLUMNS = [
    i for i, n in enumerate(BOOSTED_FEATURES) if n.startswith("root_") or n.startswith("page_")
]
FEATURE_NAMES = [*COLUMNS, *(BOOSTED_FEATURES[i] for i in PAGE_COLUMNS)]


def page_row(html: str, url: str | None) -> np.ndarray:
    """The classifier's columns of one page (zeros for a page without blocks)."""
    doc = parse_html(html, url, plugin_fallbacks=True)  # (as the labeler reads it)
    if not doc.blocks:
        return np.zeros(len(FEATURE_NAMES))
    own = boosted_features(doc)  # (once: the page-kind columns read it too)
    kind = page_kind_columns(doc, own)[0]
    return np.concatenate([kind, own[0, PAGE_COLUMNS]]).astype(np.float64)


def extracted(
    name: str, dataset: str, pairs: list[tuple[Any, Any, Any]], cache: Path
) -> list[dict[str, Any]]:
    """Per page (in ``pairs``' order: fold, runner A, runner B, page): its id, fold,
    classifier row and both models' results; cached in ``cache``."""
    path = cache / f"{name}__{dataset}.json"
    if path.exists():
        return json.loads(path.read_text())
    rows = []
    for fold, base, other, page in pairs:
        rows.append(
            {
                "id": page.id,
                "fold": fold,
                "row": page_row(page.html, page.url).tolist(),
                "base": run_page(base, page, "auto").to_dict(),
                "other": run_page(other, page, "auto").to_dict(),
            }
        )
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(rows))
    return rows


def train_router(x: np.ndarray, y: np.ndarray, seed: int = 0) -> Any:
    """A small LightGBM classifier of non-article pages."""
    import lightgbm as lgb

    model = lgb.LGBMClassifier(
        n_estimators=200,
        learning_rate=0.05,
        num_leaves=15,
        min_child_samples=20,
        subsample=0.8,
        subsample_freq=1,
        colsample_bytree=0.8,
        random_state=seed,
        verbose=-1,
    )
    return model.fit(x, y)


def kept_columns(drop: str) -> list[int]:
    """The classifier's columns without those whose names start with one of ``drop``
    (comma-separated prefixes)."""
    prefixes = tuple(d for d in drop.split(",") if d)
    return [i for i, n in enumerate(FEATURE_NAMES) if not prefixes or not n.startswith(prefixes)]


def matrix(rows: list[dict[str, Any]], columns: list[int] | None = None) -> np.ndarray:
    """The cached pages' classifier rows (only ``columns``, if given)."""
    x = np.array([r["row"] for r in rows], dtype=np.float64).reshape(len(rows), -1)
    return x if columns is None else x[:, columns]


def cross_validated(
    rows: list[dict[str, Any]],
    x_train: np.ndarray,
    y_train: np.ndarray,
    fold_train: np.ndarray,
    folds: int,
    seed: int = 0,
    columns: list[int] | None = None,
) -> np.ndarray:
    """Each of ``rows``' probability of not being an article, by a classifier trained on
    the training pages (``x_train``, ``y_train``, already cut to ``columns``) of the
    other folds than its own."""
    x = matrix(rows, columns)
    fold = np.array([r["fold"] for r in rows])
    p = np.zeros(len(rows))
    for k in range(folds):
        if (fold == k).any():
            router = train_router(x_train[fold_train != k], y_train[fold_train != k], seed)
            p[fold == k] = router.predict_proba(x[fold == k])[:, 1]
    return p


def cut_figures(rows: list[dict[str, Any]], p_other: np.ndarray, cuts: list[float]) -> list[float]:
    """A set's F1 with the base model on every page, the other on every page, then
    routed at each of ``cuts``."""
    return [
        routed_f1(rows, np.zeros(len(rows)), 1.0),
        routed_f1(rows, np.ones(len(rows)), 0.0),
        *(routed_f1(rows, p_other, c) for c in cuts),
    ]


def routed_f1(rows: list[dict[str, Any]], p_other: np.ndarray, cut: float) -> float:
    """The set's F1 when a page of ``p_other`` at least ``cut`` takes the other model."""
    return set_f1(
        PageResult.from_dict(r["other"] if p >= cut else r["base"])
        for r, p in zip(rows, p_other, strict=True)
    )


def main(argv: list[str] | None = None) -> int:
    parser = two_models_parser(__doc__.split("\n\n")[0])
    parser.add_argument("--cuts", default="0.3,0.5,0.7,0.8,0.9")
    parser.add_argument("--seed", type=int, default=0, help="the classifier's seed")
    parser.add_argument("--drop", default="", help="classifier columns left out (prefixes)")
    args = parser.parse_args(argv)
    cuts = [float(c) for c in args.cuts.split(",")]
    tag = f"{args.base.parent.name}-{args.other_run.name}"
    runner_of = article_model_runner("routed")
    types = page_types()

    cv: dict[str, list[dict[str, Any]]] = {}
    for name in SHIPPED_TRAINING_SETS:
        base_set = open_dataset(DATA / name)
        pairs = []
        for k in range(args.folds):
            a = runner_of(str(args.base / f"fold{k}"))
            b = runner_of(str(args.other_run / "boosted" / f"fold{k}"))
            pairs.extend((k, a, b, p) for p in FoldPages(base_set, k, args.folds).iter_pages())
        cv[name] = extracted(tag, name, pairs, OUT)
        print(f"extracted {name}: {len(cv[name])} pages", file=sys.stderr, flush=True)

    wcxb = cv["wcxb-dev"]
    columns = kept_columns(args.drop)
    x_w = matrix(wcxb, columns)
    y_w = np.array([types.get(r["id"]) not in (None, "article") for r in wcxb], dtype=int)
    fold_w = np.array([r["fold"] for r in wcxb])
    p_cv = {
        name: cross_validated(rows, x_w, y_w, fold_w, args.folds, args.seed, columns)
        for name, rows in cv.items()
    }
    truth = y_w.astype(bool)
    for cut in cuts:
        said = p_cv["wcxb-dev"] >= cut
        print(
            f"cut {cut}: wcxb-dev non-articles found {np.sum(said & truth)}/{truth.sum()}, "
            f"articles sent {np.sum(said & ~truth)}/{(~truth).sum()}; other sets sent "
            + ", ".join(f"{n} {int(np.sum(p_cv[n] >= cut))}" for n in cv if n != "wcxb-dev")
        )
    header = ["base", "other", *(f"cut {c}" for c in cuts)]
    print("| training set (cross-validated) | " + " | ".join(header) + " |")
    means = np.zeros(len(header))
    for name, rows in cv.items():
        figures = cut_figures(rows, p_cv[name], cuts)
        means += np.array(figures) / len(cv)
        print(f"| {name} | " + " | ".join(f"{f:.4f}" for f in figures) + " |", flush=True)
    print("| mean | " + " | ".join(f"{f:.4f}" for f in means) + " |", flush=True)

    if args.unseen:
        router = train_router(x_w, y_w, args.seed)
        a = runner_of(args.full_base)
        b = runner_of(str(args.other_run / "all"))
        means = np.zeros(len(header))
        print("| unseen set | " + " | ".join(header) + " |")
        for name in EVALUATION_ONLY_SETS:
            pages = list(open_dataset(DATA / name).iter_pages())
            rows = extracted(tag + "-full", name, [(-1, a, b, p) for p in pages], OUT)
            p = router.predict_proba(matrix(rows, columns))[:, 1]
            figures = cut_figures(rows, p, cuts)
            means += np.array(figures) / len(EVALUATION_ONLY_SETS)
            sent = ", ".join(str(int(np.sum(p >= c))) for c in cuts)
            print(
                f"| {name} | " + " | ".join(f"{f:.4f}" for f in figures) + f" | sent {sent}",
                flush=True,
            )
        print("| mean | " + " | ".join(f"{f:.4f}" for f in means) + " |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
