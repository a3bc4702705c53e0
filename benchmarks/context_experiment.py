#!/usr/bin/env python
"""Experiment for the learned default (#17): does whole-page context help? A small
bidirectional GRU over all the blocks of a page, on Web2Text's block features, beside the
shipped ``web2text`` model (a 9-block CNN plus Viterbi), at block level.

    python -m benchmarks.context_experiment [--hidden 48] [--epochs 4] [--threads 1]

Both learn from the four sets that may train a shipped model (``SHIPPED_TRAINING_SETS``,
the BiGRU on 90% of their pages, the rest choosing its best epoch); both are scored on the
six sets neither saw: block-level F1 of the content class over all labelled blocks of a
set (labels from the training alignment, as ``scrapy-boilerplate train`` makes them),
neither followed by the comment filter. Not token F1 and not a shipped model: it says
whether whole-page context is worth building, nothing more. Needs torch (the ``[train]``
extra); the featurised sets are cached in ``--cache``. Deterministic for a seed on one
thread.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

from scrapy_boilerplate.neural.features import Normalizer
from scrapy_boilerplate.neural.model import get_model
from scrapy_boilerplate.neural.viterbi import viterbi
from scrapy_boilerplate.training.dataset import (
    EVALUATION_ONLY_SETS,
    SHIPPED_TRAINING_SETS,
    build_corpus,
)
from scrapy_boilerplate.training.train import block_metrics

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT.parent / "shared" / "data"
UNSEEN = EVALUATION_ONLY_SETS
#: a longer page is trained on a random window of this many blocks (scored whole)
TRAIN_WINDOW = 600

Page = tuple[np.ndarray, np.ndarray, np.ndarray]  # blocks, edges, labels


def pages_of(data: Path, name: str, cache: Path) -> list[Page]:
    corpus = build_corpus([data / name], cache=cache, log=lambda m: print(m, file=sys.stderr))
    return [corpus.page(p) for p in range(len(corpus))]


def make_net(n_in: int, hidden: int) -> Any:
    from torch import nn

    class ContextNet(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.inp = nn.Sequential(nn.Linear(n_in, 96), nn.ReLU(), nn.Dropout(0.2))
            self.rnn = nn.GRU(96, hidden, batch_first=True, bidirectional=True)
            self.out = nn.Linear(2 * hidden, 2)

        def forward(self, x: Any) -> Any:
            z, _ = self.rnn(self.inp(x))
            return self.out(z)

    return ContextNet()


def block_f1(predictions: list[np.ndarray], pages: list[Page]) -> float:
    pred = np.concatenate(predictions)
    truth = np.concatenate([labels for _, _, labels in pages])
    known = truth >= 0
    return block_metrics(pred[known], truth[known])["f1"]


def main(argv: list[str] | None = None) -> int:
    import torch
    from torch import nn

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", type=Path, default=DATA)
    parser.add_argument("--cache", type=Path, default=ROOT / "benchmarks" / "out" / "corpus")
    parser.add_argument("--hidden", type=int, default=48)
    parser.add_argument("--epochs", type=int, default=4)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    torch.manual_seed(args.seed)
    torch.set_num_threads(args.threads)
    rng = np.random.default_rng(args.seed)

    train = [
        page for name in SHIPPED_TRAINING_SETS for page in pages_of(args.data, name, args.cache)
    ]
    normalizer = Normalizer.fit(
        np.concatenate([b for b, _, _ in train]), np.concatenate([e for _, e, _ in train])
    )

    def features(blocks: np.ndarray, edges: np.ndarray) -> Any:
        return torch.from_numpy(normalizer.transform(blocks, edges)[0])[None]

    order = rng.permutation(len(train))
    held = [train[i] for i in order[: len(train) // 10]]
    fitted = [train[i] for i in order[len(train) // 10 :] if (train[i][2] >= 0).any()]
    net = make_net(train[0][0].shape[1], args.hidden)
    optimiser = torch.optim.Adam(net.parameters(), lr=2e-3)

    def predict(pages: list[Page]) -> list[np.ndarray]:
        net.eval()
        with torch.no_grad():
            return [net(features(b, e))[0].numpy().argmax(1) for b, e, _ in pages]

    best, best_state, started = -1.0, None, time.time()
    for epoch in range(args.epochs):
        net.train()
        for i in rng.permutation(len(fitted)):
            blocks, edges, labels = fitted[i]
            if len(blocks) > TRAIN_WINDOW:
                s = int(rng.integers(0, len(blocks) - TRAIN_WINDOW))
                blocks, labels = blocks[s : s + TRAIN_WINDOW], labels[s : s + TRAIN_WINDOW]
                edges = edges[s : s + TRAIN_WINDOW - 1]
            logits = net(features(blocks, edges))[0]
            target = torch.from_numpy(labels.astype(np.int64))
            loss = nn.functional.cross_entropy(logits, target, ignore_index=-1)
            optimiser.zero_grad()
            loss.backward()
            optimiser.step()
        score = block_f1(predict(held), held)
        print(
            f"epoch {epoch}: held-out block F1 {score:.4f} ({time.time() - started:.0f} s)",
            file=sys.stderr,
        )
        if score > best:
            best, best_state = score, {k: v.clone() for k, v in net.state_dict().items()}
    net.load_state_dict(best_state)

    web2text = get_model()
    results = {}
    print("| set | BiGRU (whole page) | web2text (CNN + Viterbi) |\n|---|---:|---:|")
    for name in UNSEEN:
        pages = pages_of(args.data, name, args.cache)
        baseline = [
            np.asarray(viterbi(*web2text.log_probs(b, e), web2text.lam)) for b, e, _ in pages
        ]
        results[name] = (block_f1(predict(pages), pages), block_f1(baseline, pages))
        print(f"| {name} | {results[name][0]:.3f} | {results[name][1]:.3f} |", flush=True)
    print(json.dumps(results), file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
