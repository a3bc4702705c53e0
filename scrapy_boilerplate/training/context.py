"""Training the whole-page context labeler (the ``context`` extractor) and exporting it.

The network reads every block of a page at once: the block's features (Web2Text's 128
and our 24, standardised) and the features of the edges to its neighbours go through a
linear layer, a bidirectional GRU over the whole page and a linear layer of two logits. A
block is content when the mean content probability of the ensemble's members (same data,
different seeds; one by default) reaches the model's threshold. Whole-page context is
what Web2Text's 9-block window lacks: where the article starts, where the comments begin.

Training: pages of similar length in batches (packed sequences, so the backward direction
never reads padding), a page longer than ``window`` blocks contributes a random window of
that many, Adam, cross-entropy over the labelled blocks weighted by their characters; each
member keeps the epoch with the best weighted F1 on the validation pages (the pages of a
share of the training *sites*, never of a site it trains on), and the threshold is chosen
on them too. torch is imported inside the functions that need it.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import numpy as np

from ..neural.columns import BLOCK_FEATURES, feature_names
from ..neural.context import CONTEXT_FILE, CONTEXT_META, context_inputs
from ..neural.features import Normalizer
from .dataset import Corpus
from .train import OPSET, _jsonable, _strip_doc, block_metrics

__all__ = ["ContextConfig", "ContextResult", "train_context", "export_context", "predict_probs"]


@dataclass
class ContextConfig:
    """Hyper-parameters of :func:`train_context` (chosen by grouped cross-validation,
    docs/neural.md)."""

    seed: int = 0
    members: int = 1  # ensemble members (seeds seed, seed+1, ...)
    projection: int = 96
    hidden: int = 48
    conv: int = 0  # kernel of a convolution before the GRU (0: none)
    dropout: float = 0.2
    epochs: int = 6
    batch: int = 32  # pages per step
    window: int = 600  # longest run of blocks one page contributes to a step
    learning_rate: float = 3e-3
    validation_share: float = 0.1  # of the training sites
    #: weigh each block's loss by its characters (as text metrics count), not 1 per block
    weighted: bool = True
    threads: int = 2


@dataclass
class ContextResult:
    normalizer: Normalizer
    nets: list[Any]
    threshold: float
    metrics: dict[str, Any]
    config: ContextConfig


def make_context_net(n_in: int, projection: int, hidden: int, dropout: float, conv: int = 0) -> Any:
    """Linear -> ReLU -> dropout [-> a convolution over ``conv`` neighbouring blocks ->
    ReLU] -> biGRU -> Linear(2), batch-first."""
    import torch
    from torch import nn

    class ContextNet(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.inp = nn.Sequential(nn.Linear(n_in, projection), nn.ReLU(), nn.Dropout(dropout))
            self.conv = nn.Conv1d(projection, projection, conv, padding=conv // 2) if conv else None
            self.rnn = nn.GRU(projection, hidden, batch_first=True, bidirectional=True)
            self.out = nn.Linear(2 * hidden, 2)

        def forward(self, x: Any, lengths: Any = None) -> Any:
            z = self.inp(x)
            if self.conv is not None:
                if lengths is not None:  # a page's last rows see zeros, as when alone
                    rows = torch.arange(x.shape[1])[None, :] < lengths[:, None]
                    z = z * rows[..., None]
                z = nn.functional.relu(self.conv(z.transpose(1, 2))).transpose(1, 2)
            return self.out(run_padded(self.rnn, z, lengths))

    return ContextNet()


def run_padded(rnn: Any, z: Any, lengths: Any = None) -> Any:
    """A batch-first recurrent layer's outputs over ``z``: pages padded to one length,
    ``lengths`` their true ones (packed, so no page reads another's padding), or one page
    alone (``lengths`` None)."""
    from torch import nn

    if lengths is None:
        y, _ = rnn(z)
        return y
    packed = nn.utils.rnn.pack_padded_sequence(z, lengths, batch_first=True, enforce_sorted=False)
    y, _ = rnn(packed)
    y, _ = nn.utils.rnn.pad_packed_sequence(y, batch_first=True, total_length=z.shape[1])
    return y


def ensemble(nets: Sequence[Any]) -> Any:
    """The members' mean content probability, as one module in eval mode (what is
    exported)."""
    import torch
    from torch import nn

    class Ensemble(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.members = nn.ModuleList(nets)

        def forward(self, x: Any) -> Any:
            probs = [torch.softmax(m(x), dim=-1)[..., 1] for m in self.members]
            return torch.stack(probs, 0).mean(0)

    return Ensemble().eval()


#: the raw block column with the log of the block's characters (clipped to [2.5, 5.5])
LOG_CHARS_COLUMN = BLOCK_FEATURES.index("log_n_characters")


def block_weights(blocks: np.ndarray) -> np.ndarray:
    """A block's weight in the loss and in the weighted F1: its characters (clipped at
    about 250, as the feature is), so that a long paragraph counts more than a link."""
    return np.exp(blocks[:, LOG_CHARS_COLUMN]).astype(np.float32)


Example = tuple[np.ndarray, np.ndarray, np.ndarray]  # inputs, labels, weights


def _page_inputs(corpus: Corpus, normalizer: Normalizer, p: int) -> Example:
    blocks, edges, labels = corpus.page(p)
    return context_inputs(normalizer, blocks, edges), labels, block_weights(blocks)


def weighted_f1(pred: np.ndarray, truth: np.ndarray, weights: np.ndarray) -> float:
    """F1 of the content class over labelled blocks, each counted with its weight."""
    known = truth >= 0
    p, t, w = pred[known].astype(bool), truth[known] == 1, weights[known]
    tp, fp, fn = w[p & t].sum(), w[p & ~t].sum(), w[~p & t].sum()
    return float(2 * tp / (2 * tp + fp + fn)) if tp else 0.0


def predict_probs(nets: Sequence[Any], inputs: Sequence[np.ndarray]) -> list[np.ndarray]:
    """The ensemble's content probability per block of each page."""
    import torch

    mean = ensemble(nets)
    out = []
    with torch.no_grad():
        for x in inputs:
            if len(x) == 0:
                out.append(np.zeros(0, np.float32))
                continue
            out.append(mean(torch.from_numpy(x)[None])[0].numpy())
    return out


def _length_batches(
    pages: Sequence[int], data: Sequence[Example], cfg: ContextConfig, rng: Any
) -> list[np.ndarray]:
    """Batches of pages of similar length (little padding), in random order."""
    lengths = np.array([min(len(data[i][0]), cfg.window) for i in pages], dtype=np.float64)
    jitter = rng.uniform(0.9, 1.1, len(lengths))  # batches differ from epoch to epoch
    by_length = np.asarray(pages)[np.argsort(lengths * jitter, kind="stable")]
    batches = [by_length[s : s + cfg.batch] for s in range(0, len(by_length), cfg.batch)]
    return [batches[i] for i in rng.permutation(len(batches))]


def _train_member(
    seed: int,
    data: list[Example],
    val: list[Example],
    cfg: ContextConfig,
    log: Callable[[str], None],
) -> tuple[Any, dict[str, Any]]:
    import torch

    torch.manual_seed(seed)
    rng = np.random.default_rng(seed)
    n_in = data[0][0].shape[1]
    net = make_context_net(n_in, cfg.projection, cfg.hidden, cfg.dropout, cfg.conv)
    optimiser = torch.optim.Adam(net.parameters(), lr=cfg.learning_rate)
    fitted = [i for i, (_, y, _) in enumerate(data) if (y >= 0).any()]
    best, best_state, history, started = -1.0, None, [], time.time()
    for epoch in range(cfg.epochs):
        net.train()
        for batch in _length_batches(fitted, data, cfg, rng):
            chunk = []
            for i in batch:
                x, y, w = data[i]
                if len(x) > cfg.window:
                    a = int(rng.integers(0, len(x) - cfg.window + 1))
                    x, y, w = x[a : a + cfg.window], y[a : a + cfg.window], w[a : a + cfg.window]
                chunk.append((x, y, w if cfg.weighted else np.ones_like(w)))
            width = max(len(x) for x, _, _ in chunk)
            xb = np.zeros((len(chunk), width, n_in), np.float32)
            yb = np.zeros((len(chunk), width), np.int64)
            wb = np.zeros((len(chunk), width), np.float32)  # 0: padding or unlabelled
            for r, (x, y, w) in enumerate(chunk):
                xb[r, : len(x)], yb[r, : len(y)] = x, np.maximum(y, 0)
                wb[r, : len(w)] = np.where(y >= 0, w, 0.0)
            lengths = torch.tensor([len(x) for x, _, _ in chunk])
            logits = net(torch.from_numpy(xb), lengths)
            losses = torch.nn.functional.cross_entropy(
                logits.reshape(-1, 2), torch.from_numpy(yb).reshape(-1), reduction="none"
            )
            weights = torch.from_numpy(wb).reshape(-1)
            loss = (losses * weights).sum() / weights.sum().clamp(min=1e-6)
            optimiser.zero_grad()
            loss.backward()
            optimiser.step()
        net.eval()
        score = _validation_f1([net], val, 0.5) if val else float(epoch)
        history.append(round(score, 4))
        log(
            f"member {seed}: epoch {epoch} validation weighted F1 {score:.4f} "
            f"({time.time() - started:.0f} s)"
        )
        if score > best:
            best, best_state = score, {k: v.clone() for k, v in net.state_dict().items()}
    net.load_state_dict(best_state)
    net.eval()
    return net, {"seed": seed, "validation_f1_by_epoch": history, "best": best}


def _validation_f1(nets: Sequence[Any], val: Sequence[Example], threshold: float) -> float:
    probs = np.concatenate(predict_probs(nets, [x for x, _, _ in val]))
    truth = np.concatenate([y for _, y, _ in val])
    return weighted_f1(probs >= threshold, truth, np.concatenate([w for _, _, w in val]))


def choose_threshold(probs: np.ndarray, truth: np.ndarray, weights: np.ndarray) -> float:
    """The content-probability threshold with the best weighted F1 (0.3 to 0.7)."""
    if not len(probs):
        return 0.5
    grid = np.round(np.arange(0.3, 0.71, 0.05), 2)
    scores = [weighted_f1(probs >= g, truth, weights) for g in grid]
    return float(grid[int(np.argmax(scores))])


def train_context(
    corpus: Corpus,
    groups: Sequence[str],
    cfg: ContextConfig | None = None,
    log: Callable[[str], None] = print,
) -> ContextResult:
    """Fit the normaliser on the training pages and train the ensemble.

    ``groups``: each page's site (or any grouping key); the validation pages are the
    pages of a random ``validation_share`` of the groups.
    """
    import torch

    cfg = cfg or ContextConfig()
    torch.set_num_threads(max(1, cfg.threads))
    rng = np.random.default_rng(cfg.seed)
    names = sorted(set(groups))
    held = set(rng.permutation(names)[: max(1, int(round(len(names) * cfg.validation_share)))])
    if len(names) < 2:
        held = set()
    val_pages = [p for p in range(len(corpus)) if groups[p] in held]
    train_pages = [p for p in range(len(corpus)) if groups[p] not in held]
    normalizer = Normalizer.fit(
        np.concatenate([corpus.page(p)[0] for p in train_pages]),
        np.concatenate([corpus.page(p)[1] for p in train_pages] + [corpus.edges[:0]]),
    )
    data = [_page_inputs(corpus, normalizer, p) for p in train_pages]
    val = [_page_inputs(corpus, normalizer, p) for p in val_pages]
    log(f"pages: {len(train_pages)} train, {len(val_pages)} validation ({len(held)} sites)")
    nets, members = [], []
    for k in range(cfg.members):
        net, facts = _train_member(cfg.seed + k, data, val, cfg, log)
        nets.append(net)
        members.append(facts)
    metrics: dict[str, Any] = {"members": members}
    threshold = 0.5
    if val:
        probs = np.concatenate(predict_probs(nets, [x for x, _, _ in val]))
        truth = np.concatenate([y for _, y, _ in val])
        weights = np.concatenate([w for _, _, w in val])
        threshold = choose_threshold(probs, truth, weights)
        metrics["validation"] = block_metrics(probs >= threshold, truth)
        metrics["validation"]["weighted_f1"] = weighted_f1(probs >= threshold, truth, weights)
    metrics["pages"] = {"train": len(train_pages), "validation": len(val_pages)}
    log(f"threshold {threshold}: validation {metrics.get('validation')}")
    return ContextResult(normalizer, nets, threshold, metrics, cfg)


def export_context(
    result: ContextResult, out_dir: str | Path, extra: dict[str, Any] | None = None
) -> dict[str, Path]:
    """Write ``context.onnx`` (the ensemble: features in, content probability out) and
    ``context.json`` (normaliser, threshold, feature names, training facts)."""
    import warnings

    import torch

    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    block_names, edge_names = feature_names(True)
    width = len(block_names) + 2 * len(edge_names)
    path = out / CONTEXT_FILE
    mean = ensemble(result.nets)
    with warnings.catch_warnings():
        # the TorchScript exporter's deprecation notice, and the tracer's notes on the
        # GRU's shape checks (the sequence axis is dynamic, as declared below)
        warnings.simplefilter("ignore")
        torch.onnx.export(
            mean,
            (torch.zeros(1, 12, width),),
            str(path),
            input_names=["features"],
            output_names=["content_probability"],
            dynamic_axes={"features": {1: "blocks"}, "content_probability": {1: "blocks"}},
            opset_version=OPSET,
            dynamo=False,
            do_constant_folding=True,
        )
    _strip_doc(path)
    cfg = result.config
    meta = {
        "format": 1,
        "model": "context",
        "opset": OPSET,
        "threshold": result.threshold,
        "block_features": list(block_names),
        "edge_features": list(edge_names),
        "normalizer": result.normalizer.to_dict(),
        "architecture": {
            "input": "block features + edge features to the previous and next block",
            "projection": cfg.projection,
            "gru_hidden": cfg.hidden,
            "bidirectional": True,
            "members": cfg.members,
        },
        "training": {"config": asdict(cfg), **(extra or {})},
        "metrics": result.metrics,
    }
    meta_path = out / CONTEXT_META
    meta_path.write_text(json.dumps(_jsonable(meta), indent=1) + "\n", encoding="utf-8")
    return {"model": path, "meta": meta_path}
