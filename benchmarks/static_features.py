#!/usr/bin/env python
"""Do ``lm_fast``'s static token vectors help the default labeler (``web2text``)?

    python -m benchmarks.static_features --table DIR [--folds 4] [--dims 16] [--threads 2]

Site-grouped cross-validation at block level on the four sets that may train the shipped
model (WCXB's article pages, as the shipped model), the folds of ``benchmarks.grouped_cv``.
For each fold, Web2Text's two CNNs are trained on the other folds (the shipped
configuration) with three block inputs, and the held-out fold's blocks are labelled
(unary potentials, pairwise potentials, Viterbi) and scored against their labels:

- ``web2text``: its own features (128 + our extension columns);
- ``+static``: plus the first ``--dims`` columns of each block's static text vector
  (``lm_fast``'s table; its columns are PCA components, largest first);
- ``+lm_fast score``: plus the block's content probability from the ``lm_fast``
  regression (static vector + position + tags) fit on the training folds; the training
  folds' own scores come from an inner split (each third scored by a regression that did
  not see it), so the CNN learns how far to trust the score on unseen pages.

The static table is the one the shipped ``lm_fast`` was trained on (the model ships only
its tokens' scores): ``scrapy-boilerplate train --model lm_fast --cache DIR`` keeps it in
``DIR/lm_fast_table``, which ``--table`` names. The tag vocabulary is the shipped one.
Both are unsupervised (token encodings, token frequencies, tag frequencies): no label
enters them. Writes
``benchmarks/out/static_features/results.json`` and prints a Markdown table of block F1
per set. Needs torch and scikit-learn (the ``[train]`` extra).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np

from benchmarks import forked_corpus_workers
from benchmarks.grouped_cv import DATA, ROOT, fold_of, log
from scrapy_boilerplate.evaluation.datasets import open_dataset
from scrapy_boilerplate.neural.lm import get_lm_model, lm_rows
from scrapy_boilerplate.neural.lm_features import tag_counts
from scrapy_boilerplate.neural.lm_static import StaticEncoder
from scrapy_boilerplate.neural.viterbi import viterbi
from scrapy_boilerplate.training.dataset import (
    SHIPPED_TRAINING_SETS,
    Corpus,
    build_corpus,
    parse_page,
    site_groups,
)
from scrapy_boilerplate.training.lm import LMConfig, fit_classifier, predict
from scrapy_boilerplate.training.train import (
    TrainConfig,
    _predict_pages,
    block_metrics,
    train_models,
)

OUT = ROOT / "benchmarks" / "out" / "static_features"
VARIANTS = ("web2text", "+static", "+lm_fast score")


def lm_inputs(
    sets: list[Path], corpus: Corpus, table: Path
) -> tuple[list[np.ndarray], list[np.ndarray]]:
    """Per corpus page: its blocks' static vectors (from the table in ``table``) and
    their lm_fast regression rows."""
    model = get_lm_model(fast=True)
    static = StaticEncoder(table)
    wanted = {
        (d, p): i for i, (d, p) in enumerate(zip(corpus.datasets, corpus.page_ids, strict=True))
    }
    vectors: list[np.ndarray | None] = [None] * len(corpus)
    rows: list[np.ndarray | None] = [None] * len(corpus)
    for s in sets:
        ds = open_dataset(s)
        for page in ds.iter_pages():
            i = wanted.get((ds.name, page.id))
            if i is None:
                continue
            blocks = parse_page(page.html).blocks
            n = corpus.block_offsets[i + 1] - corpus.block_offsets[i]
            if len(blocks) != n:
                raise RuntimeError(f"{ds.name}/{page.id}: {len(blocks)} blocks, corpus has {n}")
            v = static.encode([b.text for b in blocks])
            vectors[i] = v
            rows[i] = lm_rows(v, tag_counts(blocks, model.vocabulary))
    missing = [i for i, v in enumerate(vectors) if v is None]
    if missing:
        raise RuntimeError(f"{len(missing)} corpus pages not found in the sets")
    return vectors, rows  # type: ignore[return-value]


def with_columns(corpus: Corpus, extra: list[np.ndarray]) -> Corpus:
    """The corpus with per-page extra block columns appended."""
    return Corpus(
        np.hstack([corpus.blocks, np.concatenate(extra).astype(np.float32)]),
        corpus.edges,
        corpus.labels,
        corpus.block_offsets,
        corpus.edge_offsets,
        corpus.datasets,
        corpus.page_ids,
    )


def lm_scores(
    rows: list[np.ndarray], labels: list[np.ndarray], fit_pages: np.ndarray, score_pages
) -> dict[int, np.ndarray]:
    """Content probabilities of ``score_pages``' blocks from a regression on ``fit_pages``."""
    x = np.concatenate([rows[p][labels[p] >= 0] for p in fit_pages])
    y = np.concatenate([labels[p][labels[p] >= 0] for p in fit_pages]).astype(np.int64)
    w, b = fit_classifier(x, y, LMConfig())
    return {int(p): predict(rows[p], w, b).astype(np.float32)[:, None] for p in score_pages}


def held_out_labels(result, corpus: Corpus, pages: np.ndarray) -> list[np.ndarray]:
    """Viterbi labels of the pages' blocks from a trained pair of networks."""
    blocks, edges = result.normalizer.transform(corpus.blocks, corpus.edges)
    norm = Corpus(
        blocks,
        edges,
        corpus.labels,
        corpus.block_offsets,
        corpus.edge_offsets,
        corpus.datasets,
        corpus.page_ids,
    )
    unary = _predict_pages(result.unary, norm, pages, edges=False)
    pairwise = _predict_pages(result.pairwise, norm, pages, edges=True)
    return [viterbi(u, e, result.lam) for u, e in zip(unary, pairwise, strict=True)]


def report(
    predicted: dict[str, dict[int, np.ndarray]],
    corpus: Corpus,
    labels: list[np.ndarray],
    set_names: list[str],
    args: argparse.Namespace,
    folds_done: int,
) -> None:
    """Block metrics per set over the pages of the folds done; written and printed."""
    done = sorted(predicted[VARIANTS[0]])
    table: dict[str, dict[str, dict[str, float]]] = {}
    for name in [*set_names, "all"]:
        pages = [p for p in done if name in ("all", corpus.datasets[p])]
        if not pages:
            continue
        truth = np.concatenate([labels[p] for p in pages])
        table[name] = {
            v: block_metrics(np.concatenate([predicted[v][p] for p in pages]), truth)
            for v in VARIANTS
        }
    args.out.mkdir(parents=True, exist_ok=True)
    facts = {
        "folds": args.folds,
        "folds_done": folds_done,
        "dims": args.dims,
        "seed": args.seed,
        "block_metrics": table,
    }
    (args.out / "results.json").write_text(json.dumps(facts, indent=1) + "\n", encoding="utf-8")
    print(
        f"block F1, grouped by site, {folds_done} of {args.folds} folds; "
        f"static columns: {args.dims}\n"
    )
    print("| set | blocks | " + " | ".join(VARIANTS) + " |")
    print("|---|---:|" + "---:|" * len(VARIANTS))
    for name, by_variant in table.items():
        cells = [f"{by_variant[v]['f1']:.3f}" for v in VARIANTS]
        blocks = by_variant[VARIANTS[0]]["blocks"]
        print(f"| {name} | {blocks} | " + " | ".join(cells) + " |", flush=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", type=Path, default=DATA)
    parser.add_argument("--out", type=Path, default=OUT)
    parser.add_argument(
        "--table",
        type=Path,
        required=True,
        help="directory with lm_fast's distilled table (train --model lm_fast "
        "--cache DIR keeps them in DIR/lm_fast_table)",
    )
    parser.add_argument("--cache", type=Path, default=ROOT / "benchmarks" / "out" / "corpus")
    parser.add_argument("--folds", type=int, default=4)
    parser.add_argument("--dims", type=int, default=16)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)

    sets = [args.data / name for name in SHIPPED_TRAINING_SETS]
    with forked_corpus_workers():
        corpus = build_corpus(sets, cache=args.cache, log=log, page_types=["article"], processes=2)
    groups = site_groups(sets, corpus)
    page_fold = np.array([fold_of(site, args.folds) for site in groups])
    inner = np.array([fold_of("inner:" + site, 3) for site in groups])
    log(f"corpus: {len(corpus)} pages; encoding their blocks with lm_fast's table")
    vectors, rows = lm_inputs(sets, corpus, args.table)
    labels = [corpus.page(p)[2] for p in range(len(corpus))]
    static = with_columns(corpus, [v[:, : args.dims] for v in vectors])

    # predicted[variant] = per page label arrays (held-out folds only); the table is
    # written after every fold, over the folds done so far
    predicted: dict[str, dict[int, np.ndarray]] = {v: {} for v in VARIANTS}
    for fold in range(args.folds):
        train = np.flatnonzero(page_fold != fold)
        test = np.flatnonzero(page_fold == fold)
        # the lm_fast score: held-out pages from a regression on every training page; the
        # training pages' from regressions that did not see them (inner thirds by site)
        scores = lm_scores(rows, labels, train, test)
        for third in range(3):
            part = train[inner[train] == third]
            scores.update(lm_scores(rows, labels, train[inner[train] != third], part))
        scored = with_columns(
            corpus, [scores.get(p, np.zeros((len(labels[p]), 1))) for p in range(len(corpus))]
        )
        for variant, data in zip(VARIANTS, (corpus, static, scored), strict=True):
            log(f"fold {fold}, {variant}: training on {len(train)} pages")
            cfg = TrainConfig(seed=args.seed, threads=args.threads)
            result = train_models(data.subset(train), cfg, lambda m: None)
            for p, y in zip(test, held_out_labels(result, data, test), strict=True):
                predicted[variant][int(p)] = y
        report(predicted, corpus, labels, [s.name for s in sets], args, fold + 1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
