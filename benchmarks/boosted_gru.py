#!/usr/bin/env python
"""The default's trees blended with a whole-page recurrent labeler over the same columns.

    python -m benchmarks.grouped_cv --model boosted        # the trees' fold models, first
    python -m benchmarks.boosted_gru [--seed 0] [--weights 0.35,0.6] [--unseen]

The issue's "whole-page context": the trees see one block at a time, its page spelled
out as columns; a bidirectional GRU reads the page's blocks in order. Here it reads the
trees' own 394 columns (each standardised by the training rows' mean and deviation,
clipped to 8 deviations): dropout, a linear layer of 64 with ReLU, a bidirectional GRU
of ``--hidden`` units each way, then a content logit per block from both. Trained as the
trees are, on the labelled blocks the trees decide, weighted by log(1 + words), with
Adam for ``--epochs`` epochs over batches of 16 pages of similar length (at most 3,000
blocks each). The experiment was run only this way; ``context`` (``neural/context.py``)
is the same idea on Web2Text's columns alone.

For each fold of ``benchmarks.grouped_cv`` (sites grouped as there) a GRU is trained on
the other folds' pages, and one on every page for the unseen sets; they go to
``benchmarks/out/boosted_gru/seed<N>/``. Each block's logit is then ``(1 - w) * trees +
w * GRU`` for each weight, decoded as shipped (runs, short blocks, footers, rescues,
the summary seed), and scored as every ``boosted`` choice: the training sets
cross-validated by site, then (``--unseen``) the six unseen sets. The baseline reads
every page with the article model, as ``benchmarks.blended_models`` does. Needs the
``[train]`` extra (torch). An experiment that does not ship. Not a test: nothing is
asserted.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from benchmarks import forked_corpus_workers
from scrapy_boilerplate.neural.boosted import BoostedLabeler, decided_by_trees, seeded_by_summary
from scrapy_boilerplate.neural.boosted_features import BOOSTED_FEATURES, boosted_features
from scrapy_boilerplate.training.context import run_padded

from .blended_models import blend
from .boosted_variants import compare, labeler_runner
from .grouped_cv import DATA, OUT, fold_of, log

GRU_OUT = OUT.parent / "boosted_gru"
#: how many deviations a standardised column may lie from its training mean
CLIP = 8.0
#: blocks of a page a training batch holds at most (a page's first ones)
MAX_TRAINING_BLOCKS = 3000
HEADING_COLUMN = BOOSTED_FEATURES.index("label_heading")


def gru_net(columns: int, hidden: int, dropout: float) -> Any:
    """The network: dropout, linear 64 + ReLU, a bidirectional GRU; a logit per block
    from the block's own 64 units and the GRU's state both ways."""
    import torch
    from torch import nn

    class GruNet(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.inp = nn.Sequential(
                nn.Dropout(dropout), nn.Linear(columns, 64), nn.ReLU(), nn.Dropout(dropout)
            )
            self.gru = nn.GRU(64, hidden, batch_first=True, bidirectional=True)
            self.out = nn.Linear(64 + 2 * hidden, 1)

        def forward(self, x: Any, lengths: Any = None) -> Any:
            h = self.inp(x)
            return self.out(torch.cat([h, run_padded(self.gru, h, lengths)], -1)).squeeze(-1)

    return GruNet()


def standardised(features: np.ndarray, mean: np.ndarray, std: np.ndarray) -> np.ndarray:
    """The columns in deviations from the training mean, clipped to :data:`CLIP`."""
    return np.clip((features - mean) / std, -CLIP, CLIP).astype(np.float32)


def training_targets(corpus: Any, short_words: int) -> tuple[np.ndarray, np.ndarray]:
    """Per row: whether it trains (labelled and decided by the trees), and its weight
    log(1 + words), as the trees train."""
    decided = np.zeros(len(corpus.labels), bool)
    for p in range(len(corpus)):
        a, b = corpus.offsets[p], corpus.offsets[p + 1]
        decided[a:b] = decided_by_trees(
            corpus.words[a:b], corpus.features[a:b, HEADING_COLUMN], short_words
        )
    return decided & (corpus.labels >= 0), np.log1p(corpus.words).astype(np.float32)


def page_batches(
    corpus: Any, pages: Sequence[int], rng: np.random.Generator, size: int = 16
) -> Iterator[list[int]]:
    """Batches of ``size`` pages of similar length (less padding), in a random order."""
    lengths = [corpus.offsets[p + 1] - corpus.offsets[p] for p in pages]
    order = [pages[i] for i in np.argsort(lengths, kind="stable")]
    batches = [order[i : i + size] for i in range(0, len(order), size)]
    for i in rng.permutation(len(batches)):
        yield batches[i]


def train_gru(
    corpus: Any,
    pages: Sequence[int],
    *,
    short_words: int,
    epochs: int = 6,
    hidden: int = 64,
    dropout: float = 0.3,
    seed: int = 0,
) -> dict[str, Any]:
    """Train a GRU on ``pages`` of a boosted corpus; returns what :class:`GruBlended`
    loads (state, standardisation, shape)."""
    import torch
    from torch import nn

    torch.manual_seed(seed)
    rng = np.random.default_rng(seed)
    trains, weight = training_targets(corpus, short_words)
    rows = corpus.rows(pages)
    mean = corpus.features[rows].mean(0)
    std = corpus.features[rows].std(0) + 1e-3
    net = gru_net(corpus.features.shape[1], hidden, dropout)
    opt = torch.optim.Adam(net.parameters(), lr=2e-3, weight_decay=1e-5)
    for epoch in range(epochs):
        net.train()
        total = 0.0
        for batch in page_batches(corpus, list(pages), rng):
            lengths = [
                min(corpus.offsets[p + 1] - corpus.offsets[p], MAX_TRAINING_BLOCKS) for p in batch
            ]
            x = np.zeros((len(batch), max(lengths), corpus.features.shape[1]), np.float32)
            y = np.zeros((len(batch), max(lengths)), np.float32)
            w = np.zeros_like(y)
            for i, (p, n) in enumerate(zip(batch, lengths, strict=True)):
                a = corpus.offsets[p]
                x[i, :n] = standardised(corpus.features[a : a + n], mean, std)
                y[i, :n] = corpus.labels[a : a + n] == 1
                w[i, :n] = trains[a : a + n] * weight[a : a + n]
            z = net(torch.from_numpy(x), torch.tensor(lengths))
            mask = torch.from_numpy(w)
            bce = nn.functional.binary_cross_entropy_with_logits(
                z, torch.from_numpy(y), reduction="none"
            )
            loss = (bce * mask).sum() / mask.sum().clamp(min=1.0)
            opt.zero_grad()
            loss.backward()
            nn.utils.clip_grad_norm_(net.parameters(), 1.0)
            opt.step()
            total += float(loss.detach())
        log(f"gru: epoch {epoch}, summed batch loss {total:.1f}")
    net.eval()
    return {"state": net.state_dict(), "mean": mean, "std": std, "hidden": hidden}


_NETS: dict[str, tuple[Any, np.ndarray, np.ndarray]] = {}


def load_gru(path: str) -> tuple[Any, np.ndarray, np.ndarray]:
    """A saved GRU (:func:`train_gru`'s dict) and its standardisation, loaded once."""
    if path not in _NETS:
        import torch

        saved = torch.load(path, weights_only=False)
        net = gru_net(len(saved["mean"]), saved["hidden"], 0.0)
        net.load_state_dict(saved["state"])
        net.eval()
        _NETS[path] = (net, saved["mean"], saved["std"])
    return _NETS[path]


def gru_probability(path: str, features: np.ndarray) -> np.ndarray:
    """The saved GRU's content probability of every block of a page."""
    import torch

    net, mean, std = load_gru(path)
    with torch.no_grad():
        z = net(torch.from_numpy(standardised(features, mean, std))[None])
    return torch.sigmoid(z).numpy()[0]


class GruBlended(BoostedLabeler):
    """A model directory's trees (the article model), each decided block's logit blended
    with the GRU's at ``path`` at ``weight``, then the summary seed."""

    def __init__(self, model_dir: str | None, path: str, weight: float) -> None:
        super().__init__(model_dir, discussions=False, seed_summary=False)
        self.path, self.weight = path, weight

    def scored(self, doc):  # type: ignore[no-untyped-def]
        scores = super().scored(doc)
        if not len(scores.rows):
            return scores
        other = gru_probability(self.path, boosted_features(doc))[scores.rows]
        probability = blend(scores.probability, other, self.weight)
        probability = seeded_by_summary(doc, scores.rows, probability, scores.threshold)
        return scores._replace(probability=probability)


def gru_path_for(out: Path, model_dir: str | None) -> str:
    """The GRU beside a fold's trees (``.../foldK`` -> ``out/foldK.pt``); the one trained on
    every page for the shipped trees (None)."""
    return str(out / f"{Path(model_dir).name if model_dir else 'all'}.pt")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", type=Path, default=DATA)
    parser.add_argument("--folds-dir", type=Path, default=OUT / "boosted+discussions")
    parser.add_argument("--cache", type=Path, default=OUT.parent / "corpus")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--epochs", type=int, default=6)
    parser.add_argument("--hidden", type=int, default=64)
    parser.add_argument("--dropout", type=float, default=0.3)
    parser.add_argument("--weights", default="0.35,0.6")
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--unseen", action="store_true", help="also the six unseen sets")
    args = parser.parse_args(argv)
    import torch

    from scrapy_boilerplate.training.boosted import BoostedConfig, build_boosted_corpus
    from scrapy_boilerplate.training.dataset import SHIPPED_TRAINING_SETS, site_groups

    torch.set_num_threads(args.threads)
    sets = [args.data / name for name in SHIPPED_TRAINING_SETS]
    with forked_corpus_workers():
        corpus = build_boosted_corpus(
            sets, cache=args.cache, log=log, page_types=["article"], processes=args.threads
        )
    page_fold = np.array([fold_of(site, 4) for site in site_groups(sets, corpus)])
    out = GRU_OUT / f"seed{args.seed}"
    out.mkdir(parents=True, exist_ok=True)
    options = dict(epochs=args.epochs, hidden=args.hidden, dropout=args.dropout, seed=args.seed)
    short_words = BoostedConfig().short_words
    for fold in [0, 1, 2, 3, None]:
        pages = list(range(len(corpus))) if fold is None else np.flatnonzero(page_fold != fold)
        name = "all" if fold is None else f"fold{fold}"
        log(f"gru {name}: training on {len(pages)} pages")
        saved = train_gru(corpus, list(pages), short_words=short_words, **options)
        torch.save(saved, out / f"{name}.pt")
    torch.set_num_threads(1)  # a page at a time, as the labeler runs
    weights = [float(w) for w in args.weights.split(",")]
    runners = [labeler_runner(lambda d: BoostedLabeler(d, discussions=False), "article")]
    runners += [
        labeler_runner(lambda d, w=w: GruBlended(d, gru_path_for(out, d), w), f"gru {w:g}")
        for w in weights
    ]
    labels = ["article"] + [f"gru {w:g}" for w in weights]
    compare(runners, labels, args.data, args.folds_dir, unseen=args.unseen)
    return 0


if __name__ == "__main__":
    sys.exit(main())
