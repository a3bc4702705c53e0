"""The language-model block labeler of the thesis (seed document 004), and its fast variant.

Each block becomes one row: its text's vector (a sentence encoder's, or ``lm_fast``'s
static token table's) plus the sinusoidal encoding of its position in the page, then the
counts of the 50 tags that enclose it (:mod:`~scrapy_boilerplate.neural.lm_features`); a
logistic regression gives its content probability; a block is content at or above the
model's threshold. The regression's weights are stored in the model's JSON file, so
inference is a numpy product.

- ``lm``: the encoder is multilingual-e5-small run with onnxruntime
  (:mod:`~scrapy_boilerplate.neural.lm_encoder`); it needs the ``[lm]`` extra (the
  weights package and ``sentencepiece``). Seconds per page: a transformer pass per block.
  Distinct texts are encoded once per process (a bounded memo: a site's menus and
  footers repeat on every page; :meth:`~.lm_encoder.SentenceEncoder.vectors`).
- ``lm_fast``: static token vectors distilled from the same encoder
  (:mod:`~scrapy_boilerplate.neural.lm_static`); needs ``sentencepiece`` and the encoder's
  vocabulary, which the weights package holds (the ``[lm]`` extra too).

Models: ``lm.json`` and ``lm_fast.json`` (+ ``lm_fast_scores.npy``) in
a model directory (the shipped ones are in ``scrapy_boilerplate/neural/models/``).
Training: :mod:`scrapy_boilerplate.training.lm`; the model card says on what, how well.
"""

from __future__ import annotations

import functools
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from ..document import Document
from ..errors import ModelUnavailableError
from ..filters.base import Chain, Filter, set_flags
from .filter import ProbabilityLabeler, labeler_chain
from .lm_encoder import ENCODER_NAME, get_encoder
from .lm_features import block_positions, positional_encoding, tag_counts
from .lm_static import SCORES_FILE, TokenScores
from .model import process_model, read_model_meta

__all__ = [
    "LM_META",
    "LM_FAST_META",
    "LMLabeler",
    "LMModel",
    "get_lm_model",
    "lm",
    "lm_fast",
    "lm_rows",
]

LM_META = "lm.json"
LM_FAST_META = "lm_fast.json"
_models: dict[tuple[int, str, int], LMModel] = {}
_fast_models: dict[tuple[int, str, int], LMModel] = {}


def lm_rows(vectors: np.ndarray, tags: np.ndarray) -> np.ndarray:
    """The classifier's input: each text vector plus its block's positional encoding
    (position = index / number of blocks), then the block's tag counts."""
    n, width = vectors.shape
    return np.hstack([vectors + _page_encoding(n, width), tags]).astype(np.float32)


@functools.lru_cache(maxsize=512)
def _page_encoding(n: int, width: int) -> np.ndarray:
    # the same for every page of n blocks: computed once (read-only)
    pe = positional_encoding(block_positions(n), width)
    pe.flags.writeable = False
    return pe


class LMModel:
    """One model file: the tag vocabulary, the regression, the threshold and the text
    encoder it was trained with (the sentence encoder, or the static table)."""

    def __init__(self, model_dir: str | os.PathLike[str], threads: int = 1, fast: bool = False):
        self.model_dir = Path(model_dir)
        self.fast = fast
        meta_path = self.model_dir / (LM_FAST_META if fast else LM_META)
        extra = (self.model_dir / SCORES_FILE,) if fast else ()
        meta = read_model_meta("lm_fast" if fast else "lm", meta_path, *extra)
        try:
            self.vocabulary = [str(t) for t in meta["tag_vocabulary"]]
            self.weights = np.asarray(meta["weights"], np.float32)
            self.bias = float(meta["bias"])
            self.threshold = float(meta["threshold"])
            self.pooling = str(meta.get("pooling", "mean"))
        except (KeyError, TypeError, ValueError) as exc:
            raise ModelUnavailableError(f"cannot read {meta_path}: {exc}") from exc
        if meta.get("encoder") != ENCODER_NAME:
            raise ModelUnavailableError(
                f"{meta_path}: trained on the encoder {meta.get('encoder')!r}, this version "
                f"runs {ENCODER_NAME!r}; retrain it (scrapy-boilerplate train --model "
                f"{'lm_fast' if fast else 'lm'})"
            )
        self.meta = meta
        self.threads = threads
        # the tokens' scores (lm_fast) or the encoder (lm) now: a missing file or extra
        # fails when the chain is built
        self.static = TokenScores(self.model_dir) if fast else None
        self.width = (
            len(self.weights) - len(self.vocabulary) if fast else get_encoder(threads).width
        )
        if self.width <= 0 or len(self.weights) != self.width + len(self.vocabulary):
            raise ModelUnavailableError(
                f"{meta_path}: {len(self.weights)} weights for {self.width} + "
                f"{len(self.vocabulary)} inputs"
            )

    def content_probability(
        self, blocks: list[Any], check: Callable[[], None] | None = None
    ) -> np.ndarray:
        """Each block's content probability."""
        if not blocks:
            return np.zeros(0, np.float32)
        tags = tag_counts(blocks, self.vocabulary)
        if self.static is not None:
            # linear all the way: w . (mean of token rows + PE) is the mean of the tokens'
            # scores plus w . PE, so no vector is built (same result, a fraction of the cost)
            width = self.width
            text_part = self.static.mean_scores([b.text for b in blocks])
            z = text_part + _page_encoding(len(blocks), width) @ self.weights[:width]
            z = z + tags @ self.weights[width:] + self.bias
        else:
            # distinct texts encoded once; ``check`` runs between encoder batches
            encoder = get_encoder(self.threads)
            vectors = encoder.vectors([b.text for b in blocks], self.pooling, check)
            z = lm_rows(vectors, tags) @ self.weights + self.bias
        return (1.0 / (1.0 + np.exp(-np.clip(z, -50.0, 50.0)))).astype(np.float32)


def _load(fast: bool) -> Callable[[str, int], LMModel]:
    return lambda path, threads: LMModel(path, threads, fast)


def get_lm_model(
    model_dir: str | os.PathLike[str] | None = None, threads: int = 1, fast: bool = False
) -> LMModel:
    """The process-wide model of a directory (the shipped one by default), loaded once."""
    return process_model(_fast_models if fast else _models, _load(fast), model_dir, threads)


class LMLabeler(ProbabilityLabeler):
    """Label every block content / boilerplate with the language-model labeler.

    ``fast``: the static token table (``lm_fast``) instead of the sentence encoder
    (``lm``). ``model_dir``: a directory with the model files (None: the shipped model).
    ``threshold``: the content probability a block needs (None: the model's).
    ``threads``: onnxruntime intra-op threads of the encoder.
    """

    name = "lm_labeler"

    def __init__(
        self,
        fast: bool = False,
        model_dir: str | None = None,
        threshold: float | None = None,
        threads: int = 1,
    ) -> None:
        self.fast = bool(fast)
        # (the model loads now: a missing extra or file fails when the chain is built)
        super().__init__(model_dir, threshold, threads)

    def model(self) -> LMModel:
        """The loaded model (raises ModelUnavailableError naming what to install)."""
        return get_lm_model(self.model_dir, self.threads, self.fast)

    def __call__(self, doc: Document) -> bool:
        model = self.model()
        blocks = doc.blocks
        if not blocks:
            return False
        doc.check_deadline()
        probs = model.content_probability(blocks, doc.check_deadline)
        return set_flags(blocks, (probs >= self.threshold_of(model)).tolist())


def lm(
    model_dir: str | None = None,
    threshold: float | None = None,
    threads: int = 1,
    drop_comments: bool = True,
    fallback: Any = None,
) -> Chain:
    """The ``lm`` extractor: the thesis's labeler on sentence-encoder vectors, then
    (``drop_comments``) the comment-section filter, then the optional ``fallback``."""
    labeler = LMLabeler(False, model_dir, threshold, threads)
    return labeler_chain(labeler, "lm", drop_comments, fallback)


def lm_fast(
    model_dir: str | None = None,
    threshold: float | None = None,
    drop_comments: bool = True,
    fallback: Any = None,
) -> Chain:
    """The ``lm_fast`` extractor: the same labeler on static token vectors distilled from
    the encoder, then the comment-section filter and the optional ``fallback``."""
    labeler = LMLabeler(True, model_dir, threshold)
    return labeler_chain(labeler, "lm_fast", drop_comments, fallback)


#: the family's filter and named extractors (registered by scrapy_boilerplate.families)
FILTERS: tuple[type[Filter], ...] = (LMLabeler,)
EXTRACTORS: dict[str, Callable[..., Filter]] = {"lm": lm, "lm_fast": lm_fast}
