"""Training the Web2Text unary and pairwise CNNs, choosing lambda, exporting to ONNX.

torch (and onnx, for the export) are imported inside the functions that need them.

The networks (algorithms.md 2.7, paper 3.4): 1-D convolutions over the block (or edge)
sequence, filters 50, 50, 50, 10 with ReLU and a last layer of 2 (unary) or 4 (pairwise)
logits; kernels 1, 1, 3, 3, 3; zero "same" padding, stride 1; weights truncated-normal
(sigma 0.1), biases zero. Dropout is applied to the convolution weights while training
(keep probability 0.8, the reference's newer main), L2 weight decay 1e-4 on them (paper).
Adam (learning rate 1e-3), batches of 128 windows of 9 consecutive blocks (8 edges),
evaluated every 100 steps on the validation pages; the best state is kept (unary: block F1,
pairwise: edge accuracy) and training stops after ``patience`` evaluations without gain.
"""

from __future__ import annotations

import json
import math
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from ..neural.columns import BLOCK_FEATURES, EDGE_FEATURES, feature_names
from ..neural.features import Normalizer
from ..neural.viterbi import viterbi
from .dataset import Corpus

__all__ = ["TrainConfig", "train_models", "export_onnx", "block_metrics", "choose_lambda"]

UNARY_FILTERS = (50, 50, 50, 10, 2)  # paper 3.4
PAIRWISE_FILTERS = (50, 50, 50, 10, 4)  # paper 3.4
KERNELS = (1, 1, 3, 3, 3)  # paper 3.4
INIT_STD = 0.1  # algorithms.md 2.7: truncated normal, sigma 0.1
KEEP_PROB = 0.8  # algorithms.md 2.7: dropout on the conv weights, keep 0.8 (new main)
L2 = 1e-4  # paper 3.4: L2 regularisation 1e-4
LEARNING_RATE = 1e-3  # paper 4.2
BATCH = 128  # paper 4.2: 128 windows
WINDOW = 9  # paper 4.2: 9 consecutive blocks
MAX_STEPS = 8000  # paper 4.2: 5000; more (with a decaying rate) still helped here
EVAL_EVERY = 100  # algorithms.md 2.7 (new main)
OPSET = 17
LAMBDA_GRID = (0.0, 0.05, 0.1, 0.2, 0.3, 0.5, 0.75, 1.0, 1.5, 2.0)


@dataclass
class TrainConfig:
    seed: int = 0
    steps: int = MAX_STEPS
    batch: int = BATCH
    window: int = WINDOW
    eval_every: int = EVAL_EVERY
    patience: int = 25
    learning_rate: float = LEARNING_RATE
    keep_prob: float = KEEP_PROB
    l2: float = L2
    validation_share: float = 0.1
    threads: int = 2
    lambda_grid: tuple[float, ...] = LAMBDA_GRID
    #: add our extension features (class/id words, sectioning tags) to Web2Text's
    extended: bool = True


@dataclass
class TrainResult:
    normalizer: Normalizer
    unary: Any  # torch modules
    pairwise: Any
    lam: float
    metrics: dict[str, Any] = field(default_factory=dict)
    config: TrainConfig = field(default_factory=TrainConfig)


def _make_net(n_in: int, filters: Sequence[int], kernels: Sequence[int], keep: float) -> Any:
    import torch
    from torch import nn
    from torch.nn import functional as F

    class Web2TextCNN(nn.Module):
        """Convolutions over the sequence; input (batch, length, features), output
        log-probabilities (batch, length, classes)."""

        def __init__(self) -> None:
            super().__init__()
            self.kernels = tuple(kernels)
            self.keep = keep
            self.weights = nn.ParameterList()
            self.biases = nn.ParameterList()
            prev = n_in
            for f, k in zip(filters, kernels, strict=False):
                w = torch.empty(f, prev, k)
                nn.init.trunc_normal_(w, std=INIT_STD, a=-2 * INIT_STD, b=2 * INIT_STD)
                self.weights.append(nn.Parameter(w))
                self.biases.append(nn.Parameter(torch.zeros(f)))
                prev = f

        def forward(self, x: Any) -> Any:
            h = x.transpose(1, 2)
            last = len(self.kernels) - 1
            for i, k in enumerate(self.kernels):
                w = self.weights[i]
                if self.training and self.keep < 1.0:
                    # dropout on the weights (DropConnect), as the reference code does
                    w = F.dropout(w, p=1.0 - self.keep, training=True)
                h = F.conv1d(h, w, self.biases[i], padding=k // 2)
                if i < last:
                    h = torch.relu(h)
            return torch.log_softmax(h, dim=1).transpose(1, 2)

        def l2(self) -> Any:
            return sum((w * w).sum() for w in self.weights) / 2

    return Web2TextCNN()


def _windows(
    corpus: Corpus,
    pages: np.ndarray,
    rng: np.random.Generator,
    batch: int,
    window: int,
    labelled: list[np.ndarray],
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """A batch of windows: block features, block labels, edge features, edge labels.

    A page is drawn uniformly, then one of its labelled blocks, then a window holding it.
    Short pages are zero-padded (label -1)."""
    nb, ne = corpus.blocks.shape[1], corpus.edges.shape[1]
    xb = np.zeros((batch, window, nb), dtype=np.float32)
    yb = np.full((batch, window), -1, dtype=np.int64)
    xe = np.zeros((batch, window - 1, ne), dtype=np.float32)
    ye = np.full((batch, window - 1), -1, dtype=np.int64)
    chosen = rng.integers(0, len(pages), size=batch)
    for r, c in enumerate(chosen):
        p = pages[c]
        b0, b1 = corpus.block_offsets[p], corpus.block_offsets[p + 1]
        e0 = corpus.edge_offsets[p]
        n = b1 - b0
        lab = labelled[c]
        centre = lab[rng.integers(0, len(lab))]
        start = int(np.clip(centre - rng.integers(0, window), 0, max(n - window, 0)))
        stop = min(start + window, n)
        m = stop - start
        xb[r, :m] = corpus.blocks[b0 + start : b0 + stop]
        y = corpus.labels[b0 + start : b0 + stop].astype(np.int64)
        yb[r, :m] = y
        if m > 1:
            xe[r, : m - 1] = corpus.edges[e0 + start : e0 + stop - 1]
            ye[r, : m - 1] = np.where((y[:-1] >= 0) & (y[1:] >= 0), 2 * y[:-1] + y[1:], -1)
    return xb, yb, xe, ye


def block_metrics(pred: np.ndarray, truth: np.ndarray) -> dict[str, float]:
    """Micro accuracy, precision, recall and F1 over blocks with a known label."""
    pred = np.asarray(pred)
    truth = np.asarray(truth)
    known = truth >= 0
    p, t = pred[known] == 1, truth[known] == 1
    tp = int((p & t).sum())
    fp = int((p & ~t).sum())
    fn = int((~p & t).sum())
    n = int(known.sum())
    precision = tp / (tp + fp) if tp + fp else 0.0
    recall = tp / (tp + fn) if tp + fn else 0.0
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    accuracy = float((p == t).mean()) if n else 0.0
    return {"accuracy": accuracy, "precision": precision, "recall": recall, "f1": f1, "blocks": n}


def _predict_pages(net: Any, corpus: Corpus, pages: Sequence[int], edges: bool) -> list[np.ndarray]:
    import torch

    out = []
    net.eval()
    with torch.no_grad():
        for p in pages:
            b, e, _ = corpus.page(p)
            x = e if edges else b
            if len(x) == 0:
                out.append(np.zeros((0, 4 if edges else 2), dtype=np.float32))
                continue
            out.append(net(torch.from_numpy(np.ascontiguousarray(x))[None])[0].numpy())
    net.train()
    return out


def _evaluate_unary(net: Any, corpus: Corpus, pages: Sequence[int]) -> float:
    preds = _predict_pages(net, corpus, pages, edges=False)
    pred = np.concatenate([lp.argmax(1) for lp in preds]) if len(preds) else np.zeros(0)
    truth = np.concatenate([corpus.page(p)[2] for p in pages]) if len(pages) else np.zeros(0)
    return block_metrics(pred, truth)["f1"]


def _evaluate_pairwise(net: Any, corpus: Corpus, pages: Sequence[int]) -> float:
    preds = _predict_pages(net, corpus, pages, edges=True)
    right = total = 0
    for lp, p in zip(preds, pages, strict=False):
        y = corpus.page(p)[2].astype(np.int64)
        if len(y) < 2:
            continue
        ye = np.where((y[:-1] >= 0) & (y[1:] >= 0), 2 * y[:-1] + y[1:], -1)
        known = ye >= 0
        right += int((lp.argmax(1)[known] == ye[known]).sum())
        total += int(known.sum())
    return right / total if total else 0.0


def _train_one(
    name: str,
    net: Any,
    corpus: Corpus,
    train_pages: np.ndarray,
    val_pages: np.ndarray,
    cfg: TrainConfig,
    rng: np.random.Generator,
    edges: bool,
    log: Callable[[str], None],
) -> dict[str, Any]:
    import torch
    from torch.nn import functional as F

    opt = torch.optim.Adam(net.parameters(), lr=cfg.learning_rate)
    # cosine decay to a tenth of the rate (steadier validation than a constant rate)
    sched = torch.optim.lr_scheduler.LambdaLR(
        opt, lambda k: 0.1 + 0.9 * 0.5 * (1 + math.cos(math.pi * min(k, cfg.steps) / cfg.steps))
    )
    labelled = []
    keep_pages = []
    for p in train_pages:
        y = corpus.page(p)[2]
        lab = np.flatnonzero(y >= 0)
        if len(lab):
            labelled.append(lab)
            keep_pages.append(p)
    pages = np.asarray(keep_pages)
    evaluate = _evaluate_pairwise if edges else _evaluate_unary
    best_score, best_step, best_state, waited = -1.0, 0, None, 0
    t0 = time.time()
    step = 0
    for step in range(1, cfg.steps + 1):
        xb, yb, xe, ye = _windows(corpus, pages, rng, cfg.batch, cfg.window, labelled)
        x, y = (xe, ye) if edges else (xb, yb)
        logp = net(torch.from_numpy(x))
        target = torch.from_numpy(y)
        mask = target >= 0
        if not bool(mask.any()):
            continue
        loss = F.nll_loss(logp[mask], target[mask]) + cfg.l2 * net.l2()
        opt.zero_grad()
        loss.backward()
        opt.step()
        sched.step()
        if step % cfg.eval_every == 0 or step == cfg.steps:
            score = evaluate(net, corpus, val_pages)
            if score > best_score:
                best_score, best_step, waited = score, step, 0
                best_state = {k: v.detach().clone() for k, v in net.state_dict().items()}
            else:
                waited += 1
            log(
                f"{name}: step {step} loss {loss.item():.4f} val {score:.4f} "
                f"(best {best_score:.4f} @ {best_step}, {time.time() - t0:.0f}s)"
            )
            if waited >= cfg.patience:
                break
    if best_state is not None:
        net.load_state_dict(best_state)
    net.eval()
    return {
        "best_validation": best_score,
        "best_step": best_step,
        "steps_run": step,
        "metric": "edge accuracy" if edges else "block F1",
    }


def choose_lambda(
    unary_logp: Sequence[np.ndarray],
    pairwise_logp: Sequence[np.ndarray],
    labels: Sequence[np.ndarray],
    grid: Sequence[float],
) -> tuple[float, dict[str, float]]:
    """The lambda of ``grid`` with the best validation block F1 after Viterbi (ties: the
    smaller lambda); returns it and the F1 of every lambda."""
    scores: dict[str, float] = {}
    best, best_f1 = grid[0], -1.0
    truth = np.concatenate(labels) if labels else np.zeros(0)
    for lam in grid:
        pred = np.concatenate(
            [viterbi(u, e, lam) for u, e in zip(unary_logp, pairwise_logp, strict=False)]
        )
        f1 = block_metrics(pred, truth)["f1"]
        scores[str(lam)] = f1
        if f1 > best_f1 + 1e-12:
            best, best_f1 = lam, f1
    return best, scores


def train_models(
    corpus: Corpus, cfg: TrainConfig | None = None, log: Callable[[str], None] = print
) -> TrainResult:
    """Fit the normaliser, train both networks, choose lambda on the validation pages."""
    import torch

    cfg = cfg or TrainConfig()
    torch.manual_seed(cfg.seed)
    torch.set_num_threads(max(1, cfg.threads))
    rng = np.random.default_rng(cfg.seed)
    if not cfg.extended:  # Web2Text's columns only
        corpus = Corpus(
            corpus.blocks[:, : len(BLOCK_FEATURES)],
            corpus.edges[:, : len(EDGE_FEATURES)],
            corpus.labels,
            corpus.block_offsets,
            corpus.edge_offsets,
            corpus.datasets,
            corpus.page_ids,
        )
    n_pages = len(corpus)
    order = rng.permutation(n_pages)
    n_val = max(1, int(round(n_pages * cfg.validation_share))) if n_pages > 1 else 0
    val_pages = np.sort(order[:n_val])
    train_pages = np.sort(order[n_val:]) if n_val < n_pages else np.sort(order)
    train_corpus_blocks = np.concatenate([corpus.page(p)[0] for p in train_pages])
    train_corpus_edges = np.concatenate([corpus.page(p)[1] for p in train_pages])
    normalizer = Normalizer.fit(train_corpus_blocks, train_corpus_edges)
    del train_corpus_blocks, train_corpus_edges
    norm = Corpus(
        *normalizer.transform(corpus.blocks, corpus.edges),
        corpus.labels,
        corpus.block_offsets,
        corpus.edge_offsets,
        corpus.datasets,
        corpus.page_ids,
    )
    log(
        f"pages: {len(train_pages)} train, {len(val_pages)} validation; "
        f"blocks labelled: {int((corpus.labels >= 0).sum())}"
    )
    unary = _make_net(norm.blocks.shape[1], UNARY_FILTERS, KERNELS, cfg.keep_prob)
    pairwise = _make_net(norm.edges.shape[1], PAIRWISE_FILTERS, KERNELS, cfg.keep_prob)
    metrics: dict[str, Any] = {}
    metrics["unary"] = _train_one(
        "unary", unary, norm, train_pages, val_pages, cfg, rng, False, log
    )
    metrics["pairwise"] = _train_one(
        "pairwise", pairwise, norm, train_pages, val_pages, cfg, rng, True, log
    )
    u = _predict_pages(unary, norm, val_pages, edges=False)
    e = _predict_pages(pairwise, norm, val_pages, edges=True)
    y = [norm.page(p)[2] for p in val_pages]
    lam, by_lambda = choose_lambda(u, e, y, cfg.lambda_grid)
    metrics["lambda_validation_f1"] = by_lambda
    truth = np.concatenate(y) if y else np.zeros(0)
    metrics["validation_unary_only"] = block_metrics(
        np.concatenate([x.argmax(1) for x in u]) if u else np.zeros(0), truth
    )
    metrics["validation"] = block_metrics(
        np.concatenate([viterbi(a, b, lam) for a, b in zip(u, e, strict=False)])
        if u
        else np.zeros(0),
        truth,
    )
    metrics["pages"] = {"train": int(len(train_pages)), "validation": int(len(val_pages))}
    log(f"lambda {lam}: validation {metrics['validation']}")
    return TrainResult(normalizer, unary, pairwise, lam, metrics, cfg)


def export_onnx(
    result: TrainResult, out_dir: str | Path, extra: dict[str, Any] | None = None
) -> dict[str, Path]:
    """Write ``web2text_unary.onnx``, ``web2text_pairwise.onnx`` and ``web2text.json``
    (normaliser, lambda, feature names, training facts) into ``out_dir``."""
    import torch

    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    paths = {}
    block_names, edge_names = feature_names(result.config.extended)
    for name, net, width in (
        ("unary", result.unary, len(block_names)),
        ("pairwise", result.pairwise, len(edge_names)),
    ):
        net.eval()
        path = out / f"web2text_{name}.onnx"
        dummy = torch.zeros(1, 12, width)
        export_legacy(net, dummy, path)
        _strip_doc(path)
        paths[name] = path
    meta = {
        "format": 1,
        "model": "web2text",
        "opset": OPSET,
        "lambda": result.lam,
        "extended": bool(result.config.extended),
        "block_features": list(block_names),
        "edge_features": list(edge_names),
        "normalizer": result.normalizer.to_dict(),
        "architecture": {
            "unary_filters": UNARY_FILTERS,
            "pairwise_filters": PAIRWISE_FILTERS,
            "kernels": KERNELS,
        },
        "training": {"config": asdict(result.config), **(extra or {})},
        "metrics": result.metrics,
    }
    meta_path = out / "web2text.json"
    meta_path.write_text(json.dumps(_jsonable(meta), indent=1, sort_keys=False) + "\n")
    paths["meta"] = meta_path
    return paths


def export_legacy(net: Any, dummy: Any, path: str | Path) -> None:
    """torch.onnx.export with the TorchScript exporter (no onnxscript needed; torch 2.9+
    warns that it is deprecated), a fixed opset and dynamic batch and sequence axes."""
    import warnings

    import torch

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        warnings.simplefilter("ignore", UserWarning)
        torch.onnx.export(
            net,
            (dummy,),
            str(path),
            input_names=["features"],
            output_names=["log_probs"],
            dynamic_axes={
                "features": {0: "batch", 1: "sequence"},
                "log_probs": {0: "batch", 1: "sequence"},
            },
            opset_version=OPSET,
            dynamo=False,
            do_constant_folding=True,
        )


def _strip_doc(path: Path) -> None:
    """Drop producer strings and doc strings that carry paths (smaller, reproducible file)."""
    import onnx

    model = onnx.load(str(path))
    model.producer_version = ""
    for node in model.graph.node:
        node.doc_string = ""
    onnx.save(model, str(path))


def _jsonable(x: Any) -> Any:
    if isinstance(x, dict):
        return {str(k): _jsonable(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [_jsonable(v) for v in x]
    if isinstance(x, (np.floating, float)):
        v = float(x)
        return v if math.isfinite(v) else None
    if isinstance(x, np.integer):
        return int(x)
    return x
