"""The whole-page context labeler: a bidirectional GRU over every block of a page.

The model (``context.onnx`` and ``context.json`` in a model directory; the shipped one is
in ``scrapy_boilerplate/neural/models/``) reads, per block, Web2Text's extended block
features and the features of the edges to the previous and next block, standardised,
and gives each block's content probability; a block is content at or above the model's
threshold. Training: :mod:`scrapy_boilerplate.training.context`; the model card says on
what and how well.

onnxruntime is imported, and the session created, on first use: one session per process
per model directory (a fork gets its own); the filter itself pickles as plain data.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from ..document import Document
from ..errors import ModelUnavailableError
from ..filters.base import Chain, Filter, set_flags
from .features import Normalizer, page_features
from .filter import ProbabilityLabeler, labeler_chain
from .model import check_feature_names, inference_session, process_model, read_model_meta

__all__ = [
    "CONTEXT_FILE",
    "CONTEXT_META",
    "ContextModel",
    "ContextLabeler",
    "context",
    "context_inputs",
    "get_context_model",
]

CONTEXT_FILE = "context.onnx"
CONTEXT_META = "context.json"

_models: dict[tuple[int, str, int], ContextModel] = {}


def context_inputs(normalizer: Normalizer, blocks: np.ndarray, edges: np.ndarray) -> np.ndarray:
    """One row per block: its standardised features, then those of the edge to the
    previous block and of the edge to the next (zeros at the page's ends)."""
    b, e = normalizer.transform(blocks, edges)
    n, width = len(b), e.shape[1]
    out = np.zeros((n, b.shape[1] + 2 * width), np.float32)
    out[:, : b.shape[1]] = b
    if n > 1:
        out[1:, b.shape[1] : b.shape[1] + width] = e
        out[:-1, b.shape[1] + width :] = e
    return out


class ContextModel:
    """One model directory's network, normaliser and threshold."""

    def __init__(self, model_dir: str | os.PathLike[str], threads: int = 1) -> None:
        self.model_dir = Path(model_dir)
        meta_path, onnx_path = self.model_dir / CONTEXT_META, self.model_dir / CONTEXT_FILE
        meta = read_model_meta("context", meta_path, onnx_path)
        try:
            self.threshold = float(meta["threshold"])
            self.normalizer = Normalizer.from_dict(meta["normalizer"])
        except (ValueError, KeyError, TypeError) as exc:
            raise ModelUnavailableError(f"cannot read {meta_path}: {exc}") from exc
        check_feature_names(meta, True, meta_path, "scrapy-boilerplate train --model context")
        self.meta = meta
        self.session = inference_session(onnx_path, threads, "context")

    def content_probability(self, blocks: np.ndarray, edges: np.ndarray) -> np.ndarray:
        """Each block's content probability, for raw (unstandardised) features."""
        if len(blocks) == 0:
            return np.zeros(0, np.float32)
        x = context_inputs(self.normalizer, blocks, edges)
        return self.session.run(None, {"features": x[None]})[0][0]


def get_context_model(
    model_dir: str | os.PathLike[str] | None = None, threads: int = 1
) -> ContextModel:
    """The process-wide model for a directory (the shipped one by default), loaded once."""
    return process_model(_models, ContextModel, model_dir, threads)


class ContextLabeler(ProbabilityLabeler):
    """Label every block content / boilerplate with the whole-page context model.

    ``model_dir``: a directory with ``context.onnx`` and ``context.json`` (None: the
    shipped model). ``threshold``: the content probability a block needs (None: the
    model's, chosen on validation sites). ``threads``: onnxruntime intra-op threads.
    """

    name = "context_labeler"

    def model(self) -> ContextModel:
        """The loaded model (raises ModelUnavailableError without onnxruntime)."""
        return get_context_model(self.model_dir, self.threads)

    def __call__(self, doc: Document) -> bool:
        model = self.model()
        blocks = doc.blocks
        if not blocks:
            return False
        feats, edges = page_features(doc, extended=True)
        doc.check_deadline()
        probs = model.content_probability(feats, edges)
        return set_flags(blocks, (probs >= self.threshold_of(model)).tolist())


def context(
    model_dir: str | None = None,
    threshold: float | None = None,
    threads: int = 1,
    drop_comments: bool = True,
    fallback: Any = None,
) -> Chain:
    """The ``context`` extractor: the whole-page context labeler, then (``drop_comments``)
    the :class:`~scrapy_boilerplate.filters.CommentSectionFilter`, then, if ``fallback`` is
    an extractor name or chain spec, that chain on pages where nothing is content."""
    return labeler_chain(
        ContextLabeler(model_dir, threshold, threads), "context", drop_comments, fallback
    )


#: the labeler's filter and named extractor (registered by scrapy_boilerplate.families)
FILTERS: tuple[type[Filter], ...] = (ContextLabeler,)
EXTRACTORS: dict[str, Callable[..., Filter]] = {"context": context}
