"""Training the language-model labelers (``lm`` and ``lm_fast``) and exporting them.

As the thesis (seed document 004): every labelled block of the training pages becomes one
row, its text vector plus the positional encoding of its place in the page, then its tag
counts (:func:`~scrapy_boilerplate.neural.lm.lm_rows`); a logistic regression
(scikit-learn's, its defaults as the thesis: L2, C = 1, lbfgs) is fit on them, and a block
is content at probability 0.5. The tag vocabulary is the 50 tags that enclose the training
blocks most often. Labels are the training command's automatic block labels
(:func:`~scrapy_boilerplate.training.dataset.block_labels`).

``lm`` reads the sentence encoder's vectors (from a :mod:`.lm_cache`, computed once per
set); ``lm_fast`` first distils the static token table from the same encoder
(:func:`distill_static_table`), then trains the same classifier on its vectors.
scikit-learn is needed here only (the ``[train]`` extra); the exported model is JSON.
"""

from __future__ import annotations

import json
import os
import time
from collections import Counter
from collections.abc import Callable, Collection, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from ..evaluation.datasets import open_dataset
from ..neural.lm import LM_FAST_META, LM_META, lm_rows
from ..neural.lm_encoder import ENCODER_NAME, MAX_TOKENS, SentenceEncoder
from ..neural.lm_features import ancestor_tags, tag_counts, tag_vocabulary
from ..neural.lm_static import (
    SCORES_FILE,
    TABLE_FILE,
    StaticEncoder,
    quantise,
    save_table,
    token_scores,
)
from .dataset import block_labels, parse_page, site_of
from .lm_cache import VectorCache
from .train import block_metrics

__all__ = [
    "LMConfig",
    "LMPages",
    "TABLE_DIR",
    "distill_static_table",
    "export_lm",
    "fit_classifier",
    "load_pages",
    "page_vocabulary",
    "refine_token_vectors",
    "train_lm",
]

#: where ``train_lm`` keeps lm_fast's distilled table in its cache directory
TABLE_DIR = "lm_fast_table"
#: SIF's smoothing constant (Arora et al. 2017; model2vec's default)
SIF_A = 1e-3


@dataclass
class LMConfig:
    """Choices of the LM labelers' training (the thesis's, where it states them)."""

    pooling: str = "mean"  # "cls" (the thesis's DistilBERT) or "mean" (this encoder's own)
    C: float = 1.0  # scikit-learn's default, as the thesis
    #: scikit-learn's ``class_weight`` ("balanced": each class weighs inversely to its
    #: share of the blocks); None, every block the same, as the thesis
    class_weight: str | None = None
    max_iter: int = 2000  # enough for lbfgs to converge on unscaled inputs
    threshold: float = 0.5
    static_dims: int = 384  # lm_fast's table width after PCA (chosen by site-grouped CV)
    #: lm_fast: refine the token vectors on the training texts' encoder vectors before PCA
    #: and SIF, with this ridge weight (None: not refined); chosen by site-grouped CV
    refine: float | None = 0.01
    #: distil only the first N vocabulary ids (the rest stay zero rows): quick experiments
    #: and tests; None distils the whole vocabulary (what ships)
    static_tokens: int | None = None


@dataclass
class LMPages:
    """Labelled pages as the LM labeler sees them: block texts, tag counts, labels."""

    names: list[str] = field(default_factory=list)  # "<set>/<page id>"
    sites: list[str] = field(default_factory=list)
    texts: list[list[str]] = field(default_factory=list)
    tags: list[np.ndarray] = field(default_factory=list)
    labels: list[np.ndarray] = field(default_factory=list)

    def __len__(self) -> int:
        return len(self.names)

    def subset(self, pages: Iterable[int]) -> LMPages:
        """The given pages, in that order."""
        idx = list(pages)
        return LMPages(
            [self.names[i] for i in idx],
            [self.sites[i] for i in idx],
            [self.texts[i] for i in idx],
            [self.tags[i] for i in idx],
            [self.labels[i] for i in idx],
        )


def _pages(dataset_dirs: Sequence[str | os.PathLike[str]], page_types: Collection[str] | None):
    for d in dataset_dirs:
        ds = open_dataset(d)
        for page in ds.iter_pages():
            page_type = page.extras.get("page_type")
            if page_types is not None and page_type is not None and page_type not in page_types:
                continue
            yield ds.name, page


def page_vocabulary(
    dataset_dirs: Sequence[str | os.PathLike[str]], page_types: Collection[str] | None = None
) -> list[str]:
    """The 50 tags that enclose the sets' blocks most often."""
    chains = (
        ancestor_tags(b)
        for _, page in _pages(dataset_dirs, page_types)
        for b in parse_page(page.html).blocks
    )
    return tag_vocabulary(chains)


def load_pages(
    dataset_dirs: Sequence[str | os.PathLike[str]],
    vocabulary: Sequence[str],
    page_types: Collection[str] | None = None,
    log: Callable[[str], None] | None = None,
) -> LMPages:
    """Parse and label every page of the sets (pages without a usable label are left out)."""
    out = LMPages()
    for name, page in _pages(dataset_dirs, page_types):
        doc = parse_page(page.html)
        labelled = block_labels(
            doc.blocks, page.main_text, page.with_snippets, page.without_snippets
        )
        if labelled is None:
            continue
        out.names.append(f"{name}/{page.id}")
        out.sites.append(site_of(name, page.id, page.url))
        out.texts.append([b.text for b in doc.blocks])
        out.tags.append(tag_counts(doc.blocks, vocabulary))
        out.labels.append(np.asarray(labelled[0], np.int8))
    if log:
        log(f"lm: {len(out)} labelled pages from {len(dataset_dirs)} sets")
    return out


TextVectors = Callable[[list[str]], np.ndarray]


def cache_vectors(caches: Iterable[VectorCache], pooling: str) -> TextVectors:
    """A text-to-vector function over encoder caches (every text must be in one)."""
    table: dict[str, np.ndarray] = {}
    for cache in caches:
        rows = cache.cls if pooling == "cls" else cache.mean
        table.update(zip(cache.texts, rows, strict=True))
    return lambda texts: np.stack([table[t] for t in texts]).astype(np.float32)


def page_rows(pages: LMPages, vectors: TextVectors) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Classifier rows of every labelled block, their labels and their page index."""
    xs, ys, ps = [], [], []
    for p in range(len(pages)):
        known = pages.labels[p] >= 0
        if not known.any():
            continue
        x = lm_rows(vectors(pages.texts[p]), pages.tags[p])
        xs.append(x[known])
        ys.append(pages.labels[p][known])
        ps.append(np.full(int(known.sum()), p))
    if not xs:
        raise ValueError("no labelled block to train on")
    return np.concatenate(xs), np.concatenate(ys).astype(np.int64), np.concatenate(ps)


def fit_classifier(x: np.ndarray, y: np.ndarray, config: LMConfig) -> tuple[np.ndarray, float]:
    """The logistic regression's weights and bias (scikit-learn, the thesis's choice)."""
    from sklearn.linear_model import LogisticRegression

    clf = LogisticRegression(C=config.C, max_iter=config.max_iter, class_weight=config.class_weight)
    clf.fit(x.astype(np.float64), y)
    return clf.coef_[0].astype(np.float32), float(clf.intercept_[0])


def predict(x: np.ndarray, weights: np.ndarray, bias: float) -> np.ndarray:
    """Content probabilities of classifier rows."""
    z = x @ weights + bias
    return 1.0 / (1.0 + np.exp(-np.clip(z, -50.0, 50.0)))


def distill_static_table(
    encoder: SentenceEncoder,
    frequency_texts: Iterable[str],
    dims: int,
    log: Callable[[str], None] | None = None,
    batch: int = 512,
    tokens: int | None = None,
    refine: tuple[list[str], np.ndarray, float] | None = None,
) -> np.ndarray:
    """The static token table (vocabulary x ``dims``): each token encoded alone (the
    encoder's mean-pooled ``[CLS] token [SEP]``), optionally refined on whole texts
    (``refine``: texts, the encoder's vectors of them and the ridge weight, see
    :func:`refine_token_vectors`), reduced by PCA (numpy SVD of the centred table), each
    row scaled by its SIF weight ``a / (a + p(token))`` with p counted over the tokens of
    ``frequency_texts`` (add-one smoothed). ``tokens``: encode only the first that many
    ids (the others get zero rows)."""
    vocab = encoder.vocab_size
    encoded = vocab if tokens is None else min(vocab, int(tokens))
    raw = np.zeros((vocab, encoder.width), np.float32)
    for start in range(0, encoded, batch):
        ids = np.arange(start, min(start + batch, encoded), dtype=np.int64)
        x = np.stack([np.full_like(ids, encoder.bos), ids, np.full_like(ids, encoder.eos)], axis=1)
        raw[start : start + len(ids)] = encoder.run_ids(x, np.ones_like(x)).mean
        if log and (start // batch) % 20 == 0:
            log(f"lm_fast: {start + len(ids)}/{encoded} tokens encoded")
    if refine is not None:
        texts, targets, weight = refine
        rows = [row[1:-1] for row in encoder.token_ids(texts)]  # no [CLS], [SEP]
        raw[:encoded] = refine_token_vectors(raw, rows, targets, weight, log=log)[:encoded]
    centred = raw[:encoded] - raw[:encoded].mean(axis=0)
    _, _, vt = np.linalg.svd(centred.astype(np.float64), full_matrices=False)
    reduced = np.zeros((vocab, dims), np.float32)
    reduced[:encoded] = centred @ vt[:dims].T.astype(np.float32)
    rows = encoder.token_ids(list(frequency_texts))
    ids = np.fromiter((i for row in rows for i in row[1:-1]), np.int64)  # no [CLS], [SEP]
    counts = 1.0 + np.bincount(ids, minlength=vocab)
    p = counts / counts.sum()
    return (reduced * (SIF_A / (SIF_A + p))[:, None]).astype(np.float32)


def refine_token_vectors(
    vectors: np.ndarray,
    token_rows: Sequence[Sequence[int]],
    targets: np.ndarray,
    weight: float,
    iterations: int = 60,
    log: Callable[[str], None] | None = None,
) -> np.ndarray:
    """Token vectors whose mean over a text's tokens comes near the encoder's vector of
    the whole text (as model2vec's tokenlearn): the ridge regression
    ``min ||A V - Y||^2 + weight * ||V - vectors||^2``, A a text's share of each token
    (its count / its length), Y the ``targets`` (one row per text), solved by conjugate
    gradients from ``vectors``. A token no text holds keeps its vector; a rare one
    moves little, a common one to what its texts say. scipy's sparse matrices (the
    ``[train]`` extra, with scikit-learn) hold A."""
    from scipy import sparse

    lengths = np.fromiter(map(len, token_rows), np.int64, len(token_rows))
    cols = np.fromiter((i for row in token_rows for i in row), np.int64, int(lengths.sum()))
    # a token no text holds is its own solution (its column of A is zero): the system is
    # solved for the tokens the texts hold (a fraction of a 250,000-piece vocabulary)
    held, cols = np.unique(cols, return_inverse=True)
    shares = np.repeat(1.0 / np.maximum(lengths, 1), lengths).astype(np.float32)
    text_of = np.repeat(np.arange(len(token_rows)), lengths)
    a = sparse.csr_matrix((shares, (text_of, cols)), shape=(len(token_rows), len(held)))
    at = a.T.tocsr()

    def product(x: np.ndarray) -> np.ndarray:  # (A'A + weight I) x
        return at @ (a @ x) + weight * x

    out = np.array(vectors, np.float32)
    x = out[held]
    residual = (at @ np.asarray(targets, np.float32) + weight * x) - product(x)
    direction = residual.copy()
    norms = (residual * residual).sum(axis=0)
    for step in range(iterations):  # one conjugate-gradient run per column, side by side
        moved = product(direction)
        alpha = norms / np.maximum((direction * moved).sum(axis=0), 1e-30)
        x += alpha * direction
        residual -= alpha * moved
        new_norms = (residual * residual).sum(axis=0)
        direction = residual + (new_norms / np.maximum(norms, 1e-30)) * direction
        norms = new_norms
        if log and step % 10 == 0:
            log(f"lm_fast: refining, step {step}, residual {float(np.sqrt(norms.sum())):.4g}")
    out[held] = x
    return out


def evaluate_blocks(
    pages: LMPages, vectors: TextVectors, weights: np.ndarray, bias: float, threshold: float
) -> dict[str, float]:
    """Block accuracy / precision / recall / F1 of a classifier on pages' known labels."""
    x, y, _ = page_rows(pages, vectors)
    return block_metrics((predict(x, weights, bias) >= threshold).astype(np.int8), y)


def export_lm(
    out_dir: str | os.PathLike[str],
    fast: bool,
    vocabulary: Sequence[str],
    weights: np.ndarray,
    bias: float,
    config: LMConfig,
    facts: dict[str, Any],
    table: np.ndarray | None = None,
) -> Path:
    """Write ``lm.json`` (or ``lm_fast.json`` with its tokens' scores) to ``out_dir``.

    ``lm_fast`` ships what its classifier reads of the static table, each token's
    quantised row times the text weights (:data:`SCORES_FILE`, 2 MB), rather than the
    table (96 MB): the regression is linear, so a text's part of it is the mean of its
    tokens' scores, exactly what the table's vectors give."""
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    if fast:
        if table is None:
            raise ValueError("lm_fast needs its static table")
        rows, scale = quantise(table)  # what training read: the table as stored
        np.save(out / SCORES_FILE, token_scores(rows, scale, weights[: table.shape[1]]))
    meta = {
        "model": "lm_fast" if fast else "lm",
        "encoder": ENCODER_NAME,
        "pooling": "static" if fast else config.pooling,
        "max_tokens": MAX_TOKENS,
        "positional_encoding": "sinusoidal, position = block index / blocks, added",
        "tag_vocabulary": list(vocabulary),
        "threshold": config.threshold,
        "bias": bias,
        "weights": [round(float(w), 7) for w in weights],
        "config": {k: v for k, v in vars(config).items()},
        **facts,
    }
    path = out / (LM_FAST_META if fast else LM_META)
    path.write_text(json.dumps(meta, indent=1) + "\n", encoding="utf-8")
    return path


def static_vectors(table: np.ndarray, scratch: Path) -> TextVectors:
    """A text-to-vector function with a (not yet exported) static table, exactly as the
    shipped encoder reads it (quantised)."""
    scratch.mkdir(parents=True, exist_ok=True)
    save_table(scratch / TABLE_FILE, table)
    enc = StaticEncoder(scratch)
    return enc.encode


def train_lm(
    sets: Sequence[Path],
    out_dir: str | os.PathLike[str],
    fast: bool,
    config: LMConfig | None = None,
    cache_dir: str | os.PathLike[str] | None = None,
    page_types: Collection[str] | None = None,
    threads: int = 1,
    facts: dict[str, Any] | None = None,
    log: Callable[[str], None] | None = None,
) -> dict[str, Any]:
    """Train ``lm`` (or ``lm_fast``) on the sets' labelled pages and export it to
    ``out_dir``; returns the training facts written with the model. ``cache_dir`` keeps
    the encoder's vectors of each set for the next run (a temporary folder otherwise)."""
    import tempfile

    from .lm_cache import encode_dataset

    config = config or LMConfig()
    t0 = time.time()
    encoder = SentenceEncoder(threads)
    vocabulary = page_vocabulary(sets, page_types)
    pages = load_pages(sets, vocabulary, page_types, log)
    if len(pages) < 2:
        raise ValueError("fewer than two usable pages")
    with tempfile.TemporaryDirectory() as scratch:
        table = None
        if fast:
            refine = None
            if config.refine is not None:  # the encoder's vectors of the training texts
                known = [
                    encode_dataset(encoder, s, cache_dir or scratch, log=log, page_types=page_types)
                    for s in sets
                ]
                targets = np.concatenate([np.asarray(c.mean, np.float32) for c in known])
                refine = ([t for c in known for t in c.texts], targets, config.refine)
            texts = (t for page in pages.texts for t in page)
            table = distill_static_table(
                encoder, texts, config.static_dims, log, tokens=config.static_tokens, refine=refine
            )
            # the table as stored, in the cache if there is one (experiments read it:
            # benchmarks.static_features); the model ships its tokens' scores only
            table_dir = Path(cache_dir) / TABLE_DIR if cache_dir else Path(scratch) / "table"
            vectors = static_vectors(table, table_dir)
        else:
            caches = [
                encode_dataset(encoder, s, cache_dir or scratch, log=log, page_types=page_types)
                for s in sets
            ]
            vectors = cache_vectors(caches, config.pooling)
        x, y, _ = page_rows(pages, vectors)
        weights, bias = fit_classifier(x, y, config)
        metrics = evaluate_blocks(pages, vectors, weights, bias, config.threshold)
    per_set = Counter(name.split("/", 1)[0] for name in pages.names)
    info = {
        **(facts or {}),
        "pages_per_set": dict(per_set),
        "page_types": sorted(page_types) if page_types else "all",
        "labelled_blocks": int(len(y)),
        "content_blocks": int(y.sum()),
        "training_block_metrics": {k: round(float(v), 4) for k, v in metrics.items()},
        "seconds": round(time.time() - t0),
    }
    export_lm(out_dir, fast, vocabulary, weights, bias, config, info, table)
    if log:
        log(f"{'lm_fast' if fast else 'lm'}: wrote {out_dir} ({info['seconds']} s)")
    return info
