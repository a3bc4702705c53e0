#!/usr/bin/env python
"""Does a second stage over the trees' probabilities (the whole page's context) help?

    python -m benchmarks.grouped_cv --model boosted        # the fold models, first
    python -m benchmarks.boosted_second_stage [--unseen] [--seed N]

The trees see one block at a time, with the page around it spelled out as columns of
its neighbours' statistics; they never see what they decided about the neighbours. A
second, small model reads, per block the trees decide, their probabilities along the
page: the block's own, its neighbours' (three on either side), the mean, maximum and
word-weighted mean over windows of 2, 5, 10 and 25 blocks, the page's maximum, mean and
share of words the trees call content, how far the nearest sure block is before and
after it (in blocks, capped at 25), and the block's words and link density
(:func:`context_columns`: linear in the page). Its probability replaces the trees' in
the default's decoding (the runs, the summary seed, the rescues).

Honest stacking: the second stage trains on probabilities the trees gave pages they did
not train on. For each fold of the cross-validation by site, the fold's training pages
are split again by site (3 inner folds), the trees refitted on each inner split give the
held-out inner pages' probabilities, and the second stage learns from those; the fold's
own pages are read by the fold model of ``benchmarks.grouped_cv`` (``--folds-dir``) and
that second stage. For the unseen sets (``--unseen``) the second stage learns from the
fold models' probabilities of their held-out pages, and reads the shipped trees'
probabilities. An experiment, not in the package; output in
``benchmarks/out/boosted_second_stage/s<seed>/``; needs the ``[train]`` extra.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from benchmarks.boosted_variants import compare, labeler_runner, options_runner
from benchmarks.grouped_cv import DATA, OUT, ROOT, fold_of, log
from scrapy_boilerplate.neural.boosted import (
    BoostedLabeler,
    get_boosted_model,
    seeded_by_summary,
)
from scrapy_boilerplate.neural.boosted_features import BOOSTED_FEATURES
from scrapy_boilerplate.training.boosted import (
    BoostedConfig,
    BoostedCorpus,
    block_weights,
    build_boosted_corpus,
    page_decided,
    train_boosted,
)
from scrapy_boilerplate.training.dataset import SHIPPED_TRAINING_SETS, site_groups

SECOND_OUT = ROOT / "benchmarks" / "out" / "boosted_second_stage"
WINDOWS = (2, 5, 10, 25)
NEIGHBOURS = (-3, -2, -1, 1, 2, 3)
#: a block the trees are sure of, for the distance columns
SURE = 0.55
FAR = 25
INNER_FOLDS = 3
#: the number of columns: the block's three, its neighbours, three per window, seven more
WIDTH = 3 + len(NEIGHBOURS) + 3 * len(WINDOWS) + 7
_LINK = BOOSTED_FEATURES.index("link_density")


def context_columns(probability: np.ndarray, words: np.ndarray, link: np.ndarray) -> np.ndarray:
    """The second stage's columns for the blocks the trees decide, in page order: their
    ``probability``, ``words`` and ``link`` density (see the module docstring)."""
    n = len(probability)
    if n == 0:
        return np.zeros((0, WIDTH), np.float32)
    p = probability.astype(np.float64)
    w = np.log1p(words.astype(np.float64))
    cols = [p, w, link.astype(np.float64)]
    for k in NEIGHBOURS:  # -1: no such block
        shifted = np.full(n, -1.0)
        if abs(k) < n:
            if k > 0:
                shifted[: n - k] = p[k:]
            else:
                shifted[-k:] = p[: n + k]
        cols.append(shifted)
    cp = np.concatenate(([0.0], np.cumsum(p)))
    cwp = np.concatenate(([0.0], np.cumsum(p * w)))
    cw = np.concatenate(([0.0], np.cumsum(w)))
    idx = np.arange(n)
    for size in WINDOWS:
        lo = np.maximum(idx - size, 0)
        hi = np.minimum(idx + size + 1, n)
        cols.append((cp[hi] - cp[lo]) / (hi - lo))
        cols.append((cwp[hi] - cwp[lo]) / np.maximum(cw[hi] - cw[lo], 1e-9))
        cols.append(_window_max(p, size))
    total = max(cw[-1], 1e-9)
    content = p >= 0.5
    cols.append(np.full(n, p.max()))
    cols.append(np.full(n, p.mean()))
    cols.append(np.full(n, float((w * content).sum() / total)))
    sure = np.flatnonzero(p >= SURE)
    cols.append(_distance(sure, idx, before=True))
    cols.append(_distance(sure, idx, before=False))
    cwc = np.concatenate(([0.0], np.cumsum(w * content)))
    cols.append(cwc[idx] / total)  # content words before the block
    cols.append((cwc[-1] - cwc[idx + 1]) / total)  # and after it
    return np.column_stack(cols).astype(np.float32)


def _window_max(p: np.ndarray, size: int) -> np.ndarray:
    """The maximum over ``i - size .. i + size`` for every ``i`` (a sliding maximum: a
    reduction over a strided view, fine for the windows' few dozen blocks)."""
    n = len(p)
    padded = np.concatenate((np.full(size, -1.0), p, np.full(size, -1.0)))
    view = np.lib.stride_tricks.sliding_window_view(padded, 2 * size + 1)
    return view.max(axis=1)[:n]


def _distance(sure: np.ndarray, idx: np.ndarray, before: bool) -> np.ndarray:
    """Blocks from each block to the nearest sure one before (or after) it, capped."""
    if len(sure) == 0:
        return np.full(len(idx), float(FAR))
    if before:
        pos = np.searchsorted(sure, idx, side="right") - 1
        found = pos >= 0
        dist = np.where(found, idx - sure[np.maximum(pos, 0)], FAR)
    else:
        pos = np.searchsorted(sure, idx, side="left")
        found = pos < len(sure)
        dist = np.where(found, sure[np.minimum(pos, len(sure) - 1)] - idx, FAR)
    return np.minimum(dist, FAR).astype(np.float64)


def page_rows(corpus: BoostedCorpus, page: int, cfg: BoostedConfig) -> np.ndarray:
    """The corpus rows of a page that the trees decide, in page order."""
    return corpus.offsets[page] + np.flatnonzero(page_decided(corpus, page, cfg))


def stage_rows(
    corpus: BoostedCorpus, pages: Sequence[int], probability: dict[int, np.ndarray], cfg
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The second stage's training rows of ``pages``: columns, labels and weights of the
    labelled blocks the trees decide (``probability``: per page, the trees' out-of-fold
    probabilities of those blocks)."""
    xs, ys, ws = [], [], []
    for page in pages:
        rows = page_rows(corpus, page, cfg)
        if len(rows) == 0:
            continue
        cols = context_columns(probability[page], corpus.words[rows], corpus.features[rows, _LINK])
        labelled = corpus.labels[rows] >= 0
        xs.append(cols[labelled])
        ys.append(corpus.labels[rows][labelled])
        ws.append(block_weights(corpus, rows[labelled], cfg.page_balance))
    return np.concatenate(xs), np.concatenate(ys), np.concatenate(ws)


def fit_stage(x: np.ndarray, y: np.ndarray, w: np.ndarray, seed: int) -> Any:
    """The second stage: a small LightGBM model (100 trees of 15 leaves)."""
    import lightgbm

    model = lightgbm.LGBMClassifier(
        n_estimators=100,
        num_leaves=15,
        max_depth=6,
        learning_rate=0.1,
        min_child_samples=50,
        subsample=0.8,
        subsample_freq=1,
        colsample_bytree=0.8,
        random_state=seed,
        n_jobs=2,
        deterministic=True,
        force_row_wise=True,
        verbose=-1,
    )
    return model.fit(x, y, sample_weight=w)


def out_of_fold(
    corpus: BoostedCorpus,
    pages: Sequence[int],
    groups: list[str],
    cfg: BoostedConfig,
    folds: int,
    salt: str,
) -> dict[int, np.ndarray]:
    """Per page of ``pages``, the probabilities of trees refitted without its site's
    inner fold (``folds`` folds by site, hashed with ``salt``)."""
    inner = np.array([fold_of(groups[p] + salt, folds) for p in pages])
    pages = np.asarray(pages)
    out: dict[int, np.ndarray] = {}
    for k in range(folds):
        trees = train_boosted(corpus, cfg, pages=pages[inner != k])
        for page in pages[inner == k]:
            rows = page_rows(corpus, page, cfg)
            out[int(page)] = (
                trees.predict_proba(corpus.features[rows])[:, 1] if len(rows) else np.zeros(0)
            )
    return out


class SecondStageLabeler(BoostedLabeler):
    """The default labeler with the trees' probabilities read again by a second stage
    (the summary seed applied to the second stage's probabilities, not the trees')."""

    def __init__(
        self,
        model_dir: str | None,
        stage: Any,
        threshold: float | None = None,
        grow_threshold: float | None = None,
    ) -> None:
        super().__init__(model_dir, threshold, grow_threshold=grow_threshold, seed_summary=False)
        self.stage = stage

    def scored(self, doc: Any) -> Any:
        scores = super().scored(doc)
        if not len(scores.rows):
            return scores
        blocks = doc.blocks
        # (as the trees' own column: linked words over words)
        link = np.array(
            [blocks[i].num_words_in_anchor_text / max(blocks[i].num_words, 1) for i in scores.rows],
            np.float64,
        )
        cols = context_columns(scores.probability, scores.words[scores.rows], link)
        probability = self.stage.predict_proba(cols)[:, 1].astype(np.float32)
        probability = seeded_by_summary(doc, scores.rows, probability, scores.threshold)
        return scores._replace(probability=probability)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", type=Path, default=DATA)
    parser.add_argument("--folds-dir", type=Path, default=OUT / "boosted")
    parser.add_argument("--cache", type=Path, default=SECOND_OUT / "corpus")
    parser.add_argument("--folds", type=int, default=4)
    parser.add_argument("--seed", type=int, default=0, help="LightGBM's (both stages)")
    parser.add_argument("--unseen", action="store_true")
    parser.add_argument(
        "--thresholds",
        default="",
        help="more decodings of the second stage: seed/grow pairs, as 0.5/0.5,0.6/0.45",
    )
    args = parser.parse_args(argv)
    pairs = [tuple(map(float, pair.split("/"))) for pair in args.thresholds.split(",") if pair]
    sets = [args.data / name for name in SHIPPED_TRAINING_SETS]
    corpus = build_boosted_corpus(sets, cache=args.cache, log=log, page_types=["article"])
    groups = site_groups(sets, corpus)
    page_fold = np.array([fold_of(site, args.folds) for site in groups])
    cfg = BoostedConfig(seed=args.seed)
    stages: dict[str | None, Any] = {}
    for k in range(args.folds):
        train = np.flatnonzero(page_fold != k)
        log(f"fold {k}: inner out-of-fold probabilities of {len(train)} pages")
        oof = out_of_fold(corpus, train, groups, cfg, INNER_FOLDS, "/inner")
        stages[str(args.folds_dir / f"fold{k}")] = fit_stage(
            *stage_rows(corpus, train, oof, cfg), args.seed
        )
    if args.unseen:
        log("all pages: the fold models' probabilities of their held-out pages")
        oof = {}
        for k in range(args.folds):
            model = get_boosted_model(str(args.folds_dir / f"fold{k}"))
            for page in np.flatnonzero(page_fold == k):
                rows = page_rows(corpus, page, cfg)
                oof[int(page)] = model.content_probability(corpus.features, rows)
        stages[None] = fit_stage(*stage_rows(corpus, range(len(corpus)), oof, cfg), args.seed)

    def second(threshold: float | None = None, grow: float | None = None) -> Any:
        return labeler_runner(lambda d: SecondStageLabeler(d, stages[d], threshold, grow), "second")

    compare(
        [
            options_runner({}),
            second(),
            *(second(seed, grow) for seed, grow in pairs),
        ],
        ["shipped", "second stage", *(f"second stage {seed:g}/{grow:g}" for seed, grow in pairs)],
        args.data,
        args.folds_dir,
        args.folds,
        True,
        args.unseen,
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
