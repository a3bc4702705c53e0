"""Training the boosted labeler (the ``boosted`` extractor, the default) and exporting it.

Each page of the training sets is parsed and labelled as for Web2Text (automatic block
labels from the reference text, or from must / must-not snippets), and its blocks get the
:data:`~scrapy_boilerplate.neural.boosted_features.BOOSTED_FEATURES`. The blocks of more
than ``short_words`` words with a known label train a LightGBM binary classifier, each
weighted by ``log(1 + words)`` (a long paragraph matters more to the text than a short
line), the probability constrained never to grow with the block's link density; the
ensemble is exported with onnxmltools to ONNX's ``TreeEnsembleClassifier``,
which the labeler runs with onnxruntime.

The hyper-parameters (:class:`BoostedConfig`) were chosen by cross-validation grouped by
site on the training sets (``python -m benchmarks.grouped_cv --model boosted``), never on
the evaluation-only sets. Training is deterministic: LightGBM's deterministic mode, one
seed, a fixed thread count. lightgbm and onnxmltools (the ``[train]`` extra) are imported
inside the functions that need them.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Callable, Collection, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from ..neural.boosted import (
    BOOSTED_FILE,
    BOOSTED_META,
    HEADING_COLUMN,
    BlockScores,
    decided_by_trees,
    in_footer,
    navigation_links,
)
from ..neural.boosted_features import BOOSTED_FEATURES, boosted_features
from .dataset import (
    _jobs,
    block_labels,
    code_version,
    load_fields,
    map_pages,
    parse_page,
    save_fields,
)
from .train import _jsonable, block_metrics

__all__ = [
    "BoostedConfig",
    "BoostedCorpus",
    "build_boosted_corpus",
    "export_boosted",
    "page_decided",
    "train_boosted",
]

#: the ONNX ML opset of the exported trees (onnxmltools' highest for LightGBM)
ML_OPSET = 3
#: the default ONNX opset of the exported graph
OPSET = 15


@dataclass
class BoostedConfig:
    """Hyper-parameters of :func:`train_boosted` (chosen by grouped cross-validation,
    docs/neural.md)."""

    trees: int = 200
    leaves: int = 31
    max_depth: int = 8
    learning_rate: float = 0.1
    min_child_samples: int = 50
    subsample: float = 0.8
    colsample: float = 0.5
    reg_lambda: float = 1.0
    #: blocks of at most this many words are decided by their neighbours, not the trees
    #: (4: the cross-validated mean of 2, with a third fewer rows; 6 and 8 were lower)
    short_words: int = 4
    #: headings of at most ``short_words`` words are decided by the trees too
    short_headings: bool = False
    #: features whose growth may only lower the content probability (LightGBM's monotone
    #: constraints): more of a block's own words in links never makes it more likely text
    decreasing: tuple[str, ...] = ("link_density",)
    #: a run of consecutive tree-decided blocks, each at ``grow_threshold`` or more, is
    #: content if one of them reaches ``threshold`` (neural.boosted.content_runs)
    threshold: float = 0.55
    grow_threshold: float = 0.4
    #: each block's weight log(1 + words) divided by its page's total weight to this
    #: power (0: long pages count as their blocks; 1: every page counts the same, as the
    #: page-mean token F1 does)
    page_balance: float = 0.0
    #: the weight of the blocks of a page whose set labels it a type other than
    #: ``article`` (WCXB's forums, listings, products, ...) against an article's: 0.3
    #: trains the discussions model (docs/neural.md); 1: as many as their words say
    other_page_weight: float = 1.0
    seed: int = 0
    threads: int = 2


@dataclass
class BoostedCorpus:
    """Pages concatenated: feature rows, labels (1, 0, -1 unknown), words per block, and
    per-page offsets."""

    features: np.ndarray
    labels: np.ndarray
    words: np.ndarray
    offsets: np.ndarray  # page p: rows offsets[p]:offsets[p+1]
    datasets: list[str] = field(default_factory=list)
    page_ids: list[str] = field(default_factory=list)
    #: each page's type where its set labels one (wcxb-dev: article, forum, ...), else ""
    page_types: list[str] = field(default_factory=list)

    def __len__(self) -> int:
        return len(self.page_ids)

    def rows(self, pages: Sequence[int]) -> np.ndarray:
        """The row indices of some pages."""
        parts = [np.arange(self.offsets[p], self.offsets[p + 1]) for p in pages]
        return np.concatenate(parts) if parts else np.zeros(0, np.int64)

    def save(self, path: str | os.PathLike[str]) -> None:
        save_fields(self, path)

    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> BoostedCorpus:
        return load_fields(cls, path)


def _page(
    args: tuple[Any, ...],
) -> tuple[str, str, np.ndarray, np.ndarray, np.ndarray] | str | None:
    name, page_id, html, main_text, with_snippets, without_snippets = args
    try:
        doc = parse_page(html)
        # whitespace runs do not count against a block (docs/neural.md, "Labels")
        labelled = block_labels(
            doc.blocks, main_text, with_snippets, without_snippets, count_whitespace=False
        )
        if labelled is None:
            return None
        words = np.array([b.num_words for b in doc.blocks], dtype=np.int32)
        labels = np.asarray(labelled[0], dtype=np.int8)
        return name, page_id, boosted_features(doc), labels, words
    except Exception as exc:  # noqa: BLE001 - one odd page must not stop a long build
        return f"{name}/{page_id}: {type(exc).__name__}: {exc}"


def build_boosted_corpus(
    dataset_dirs: Sequence[str | os.PathLike[str]],
    *,
    limit: int | None = None,
    processes: int = 1,
    cache: str | os.PathLike[str] | None = None,
    log: Callable[[str], None] | None = None,
    page_types: Collection[str] | None = None,
) -> BoostedCorpus:
    """Featurise and label every page of the given dataset folders (in order); pages
    without a usable label are left out. ``page_types`` and ``cache`` as in
    :func:`~scrapy_boilerplate.training.dataset.build_corpus`."""
    types = sorted(page_types) if page_types is not None else None
    cache_file = None
    if cache is not None:
        folders = [str(Path(d).resolve()) for d in dataset_dirs]
        # ("page_types": the corpus keeps each page's type since 2026-11-29)
        key = hashlib.sha256(repr((folders, limit, types, code_version(), "page_types")).encode())
        cache_file = Path(cache) / f"boosted-corpus-{key.hexdigest()[:16]}.npz"
        if cache_file.exists():
            if log:
                log(f"corpus: loading {cache_file}")
            return BoostedCorpus.load(cache_file)
    pages = map_pages(_page, _jobs(dataset_dirs, limit, types), processes, log)
    offsets = np.zeros(len(pages) + 1, dtype=np.int64)
    np.cumsum([len(p[3]) for p in pages], out=offsets[1:])
    width = len(BOOSTED_FEATURES)
    corpus = BoostedCorpus(
        features=np.concatenate([p[2] for p in pages] + [np.zeros((0, width), np.float32)]),
        labels=np.concatenate([p[3] for p in pages] + [np.zeros(0, np.int8)]),
        words=np.concatenate([p[4] for p in pages] + [np.zeros(0, np.int32)]),
        offsets=offsets,
        datasets=[p[0] for p in pages],
        page_ids=[p[1] for p in pages],
        page_types=_page_types(dataset_dirs, [(p[0], p[1]) for p in pages]),
    )
    if cache_file is not None:
        cache_file.parent.mkdir(parents=True, exist_ok=True)
        corpus.save(cache_file)
    return corpus


def _page_types(
    dataset_dirs: Sequence[str | os.PathLike[str]], pages: list[tuple[str, str]]
) -> list[str]:
    """The type of each (set, page id), as its set labels it ("" where it does not)."""
    from ..evaluation.datasets import open_dataset

    types: dict[tuple[str, str], str] = {}
    for d in dataset_dirs:
        ds = open_dataset(d)
        for page in ds.iter_labels():
            types[(ds.name, page.id)] = page.extras.get("page_type") or ""
    return [types.get(page, "") for page in pages]


def train_boosted(
    corpus: BoostedCorpus,
    cfg: BoostedConfig | None = None,
    pages: Sequence[int] | None = None,
    log: Callable[[str], None] | None = None,
) -> Any:
    """Fit the trees on the labelled long blocks of ``pages`` (all by default); returns
    the fitted ``lightgbm.LGBMClassifier``."""
    import lightgbm

    cfg = cfg or BoostedConfig()
    rows = corpus.rows(range(len(corpus)) if pages is None else pages)
    labels = corpus.labels[rows]
    words = corpus.words[rows]
    # (the heading column alone: indexing the whole matrix by rows would copy it)
    headings = corpus.features[rows, HEADING_COLUMN]
    trees_decide = decided_by_trees(words, headings, cfg.short_words, cfg.short_headings)
    keep = rows[(labels >= 0) & trees_decide]
    y = corpus.labels[keep]
    if len(np.unique(y)) < 2:
        raise ValueError("the training blocks hold one label only: nothing to learn")
    model = lightgbm.LGBMClassifier(
        n_estimators=cfg.trees,
        num_leaves=cfg.leaves,
        max_depth=cfg.max_depth,
        learning_rate=cfg.learning_rate,
        min_child_samples=cfg.min_child_samples,
        subsample=cfg.subsample,
        subsample_freq=1,
        colsample_bytree=cfg.colsample,
        reg_lambda=cfg.reg_lambda,
        random_state=cfg.seed,
        n_jobs=cfg.threads,
        deterministic=True,
        force_row_wise=True,
        verbose=-1,
    )
    monotone = [0] * len(BOOSTED_FEATURES)
    for name in cfg.decreasing:
        monotone[BOOSTED_FEATURES.index(name)] = -1
    model.set_params(monotone_constraints=monotone)
    if log:
        headings = " and shorter headings" if cfg.short_headings else ""
        log(f"boosted: {len(keep)} labelled blocks of more than {cfg.short_words} words{headings}")
    weights = block_weights(corpus, keep, cfg.page_balance)
    if cfg.other_page_weight != 1.0:
        weights = weights * other_type_factors(corpus, keep, cfg.other_page_weight)
    model.fit(corpus.features[keep], y, sample_weight=weights)
    return model


def block_weights(corpus: BoostedCorpus, keep: np.ndarray, page_balance: float) -> np.ndarray:
    """The training weight of the rows ``keep``: log(1 + words), divided by the page's
    total weight (of its kept rows) to the power ``page_balance``, scaled so that the
    weights keep their sum."""
    weights = np.log1p(corpus.words[keep].astype(np.float64))
    if page_balance == 0.0 or len(keep) == 0:
        return weights
    page = np.searchsorted(corpus.offsets, keep, side="right") - 1
    totals = np.bincount(page, weights=weights, minlength=len(corpus))
    balanced = weights / totals[page] ** page_balance
    return balanced * (weights.sum() / balanced.sum())


def other_type_factors(corpus: BoostedCorpus, keep: np.ndarray, weight: float) -> np.ndarray:
    """Per row of ``keep``, ``weight`` if its page's type is neither ``article`` nor
    unlabelled (a WCXB forum, listing, product, ...), else 1."""
    other = np.array([t not in ("", "article") for t in corpus.page_types], dtype=bool)
    page = np.searchsorted(corpus.offsets, keep, side="right") - 1
    return np.where(other[page], weight, 1.0) if len(other) else np.ones(len(keep))


def page_decided(corpus: BoostedCorpus, page: int, cfg: BoostedConfig) -> np.ndarray:
    """Per row of ``page``, whether the trees decide it, as the labeler reads the page
    (:func:`~scrapy_boilerplate.neural.boosted.decided_by_trees` over the whole page)."""
    lo, hi = corpus.offsets[page], corpus.offsets[page + 1]
    return decided_by_trees(
        corpus.words[lo:hi], corpus.features[lo:hi], cfg.short_words, cfg.short_headings
    )


def predict_pages(
    model: Any, corpus: BoostedCorpus, pages: Sequence[int], cfg: BoostedConfig
) -> np.ndarray:
    """The labeler's decisions (0 / 1) for the rows of ``pages``, in row order, as the
    shipped labeler makes them (LightGBM's own probabilities, the navigation rule, the
    short-block rule, the footer rule: :meth:`BlockScores.content`)."""
    out = []
    for p in pages:
        lo, hi = corpus.offsets[p], corpus.offsets[p + 1]
        if hi == lo:
            continue
        features, words = corpus.features[lo:hi], corpus.words[lo:hi]
        long = page_decided(corpus, p, cfg)
        scores = BlockScores(
            words,
            long,
            np.flatnonzero(long),
            model.predict_proba(features[long])[:, 1],
            navigation_links(features[long]),
            cfg.threshold,
            cfg.grow_threshold,
            in_footer(features),
        )
        out.append(scores.content(cfg.threshold))
    return np.concatenate(out).astype(np.int8) if out else np.zeros(0, np.int8)


def export_boosted(
    model: Any,
    out_dir: str | os.PathLike[str],
    cfg: BoostedConfig,
    extra: dict[str, Any] | None = None,
) -> dict[str, Path]:
    """Write ``boosted.onnx`` (the trees: features in, ``probabilities`` out) and
    ``boosted.json`` (feature names, thresholds, short-block bound, configuration and
    training facts)."""
    import onnx
    from onnxmltools import convert_lightgbm
    from onnxmltools.convert.common.data_types import FloatTensorType

    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    onx = convert_lightgbm(
        model,
        initial_types=[("features", FloatTensorType([None, len(BOOSTED_FEATURES)]))],
        zipmap=False,
        target_opset=OPSET,
    )
    # only the probabilities are an output (the label output's declared shape is wrong
    # and makes onnxruntime warn on every run); producer strings and names stay out so
    # that retraining gives the same bytes
    graph = onx.graph
    graph.name = "boosted"  # (a random identifier otherwise)
    keep = [o for o in graph.output if o.name == "probabilities"]
    del graph.output[:]
    graph.output.extend(keep)
    onx.producer_version = ""
    onx.doc_string = ""
    # the converter lists the operator domains in the order of a set of strings, which
    # changes with the process's hash seed: sorted, a retrain in a new process gives the
    # same bytes
    domains = sorted(onx.opset_import, key=lambda opset: opset.domain)
    del onx.opset_import[:]
    onx.opset_import.extend(domains)
    for node in graph.node:
        node.doc_string = ""
    path = out / BOOSTED_FILE
    onnx.save(onx, str(path))
    meta = {
        "format": 1,
        "model": "boosted",
        "opset": OPSET,
        "threshold": cfg.threshold,
        "grow_threshold": cfg.grow_threshold,
        "short_words": cfg.short_words,
        "short_headings": cfg.short_headings,
        "features": list(BOOSTED_FEATURES),
        "config": asdict(cfg),
        "training": _jsonable(extra or {}),
    }
    meta_path = out / BOOSTED_META
    meta_path.write_text(json.dumps(meta, indent=1) + "\n", encoding="utf-8")
    return {"onnx": path, "meta": meta_path}


def training_metrics(model: Any, corpus: BoostedCorpus, cfg: BoostedConfig) -> dict[str, float]:
    """Block metrics of the labeler's decisions on its own training pages (in-sample: a
    sanity check, not evidence of quality)."""
    pages = range(len(corpus))
    return block_metrics(predict_pages(model, corpus, pages, cfg), corpus.labels)
