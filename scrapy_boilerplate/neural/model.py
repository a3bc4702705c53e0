"""Loading the Web2Text model files and running them with onnxruntime.

A model is a directory with ``web2text_unary.onnx``, ``web2text_pairwise.onnx`` and
``web2text.json`` (feature normalisation, lambda, training facts). The shipped one is in
``scrapy_boilerplate/neural/models/``.

onnxruntime is imported, and the sessions created, on first use: one InferenceSession per
process per model file (a fork gets its own), with bounded intra-op threads. Sessions are
safe to share between threads (``run`` is thread-safe); creation is guarded by a lock.
"""

from __future__ import annotations

import json
import os
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from ..errors import ModelUnavailableError
from .columns import feature_names
from .features import Normalizer

__all__ = [
    "DEFAULT_MODEL_DIR",
    "INSTALL_HINT",
    "Web2TextModel",
    "check_feature_names",
    "get_model",
    "inference_session",
    "process_model",
    "read_model_meta",
]

DEFAULT_MODEL_DIR = Path(__file__).resolve().parent / "models"
UNARY_FILE = "web2text_unary.onnx"
PAIRWISE_FILE = "web2text_pairwise.onnx"
META_FILE = "web2text.json"
#: onnxruntime is a dependency of the package: missing, it was uninstalled or is broken
INSTALL_HINT = "pip install onnxruntime (a dependency of scrapy-boilerplate-removal)"
#: rows of one network run; longer pages run in chunks (bounded memory)
CHUNK_ROWS = 8192
#: the networks' kernels when a model's metadata does not say (paper 3.4)
DEFAULT_KERNELS = (1, 1, 3, 3, 3)

_lock = threading.Lock()
_models: dict[tuple[int, str, int], Web2TextModel] = {}


def _import_onnxruntime(model: str = "web2text") -> Any:
    try:
        import onnxruntime
    except ImportError as exc:
        raise ModelUnavailableError(
            f"the {model} labeler needs onnxruntime, which is not installed: {INSTALL_HINT}"
        ) from exc
    return onnxruntime


def read_model_meta(model: str, meta_path: Path, *files: Path) -> dict[str, Any]:
    """A model directory's JSON metadata, once it and the model's other ``files`` are
    known to be there; a missing or unreadable file raises :class:`ModelUnavailableError`
    naming it."""
    for f in (meta_path, *files):
        if not f.is_file():
            raise ModelUnavailableError(f"{model} model file missing: {f}")
    try:
        return json.loads(meta_path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise ModelUnavailableError(f"cannot read {meta_path}: {exc}") from exc


def check_feature_names(
    meta: dict[str, Any], extended: bool, meta_path: Path, retrain: str
) -> None:
    """Refuse a model trained on other feature columns than this version computes (the
    names are stored with the model): the ``retrain`` command makes a matching one."""
    block_names, edge_names = feature_names(extended)
    if list(meta.get("block_features", [])) != list(block_names) or list(
        meta.get("edge_features", [])
    ) != list(edge_names):
        raise ModelUnavailableError(
            f"{meta_path}: the model was trained on other features than this version "
            f"computes; retrain it ({retrain})"
        )


def inference_session(path: Path, threads: int, model: str) -> Any:
    """An onnxruntime CPU session for one model file: ``threads`` intra-op threads, one
    inter-op thread, every graph optimisation. A file onnxruntime cannot load raises
    :class:`ModelUnavailableError` naming ``model``."""
    ort = _import_onnxruntime(model)
    options = ort.SessionOptions()
    options.intra_op_num_threads = max(1, int(threads))
    options.inter_op_num_threads = 1
    options.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
    options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
    try:
        return ort.InferenceSession(str(path), options, providers=["CPUExecutionProvider"])
    except Exception as exc:  # onnxruntime raises its own exception types
        raise ModelUnavailableError(f"cannot load the {model} model: {exc}") from exc


def process_model(
    cache: dict[tuple[int, str, int], Any],
    load: Callable[[str, int], Any],
    model_dir: str | os.PathLike[str] | None,
    threads: int,
) -> Any:
    """The model of a directory (the shipped one by default) in this process, loaded once
    by ``load(path, threads)`` and kept in ``cache`` (keyed by process: a fork loads its
    own sessions)."""
    path = str(Path(model_dir).resolve()) if model_dir else str(DEFAULT_MODEL_DIR)
    key = (os.getpid(), path, int(threads))
    model = cache.get(key)
    if model is None:
        with _lock:
            model = cache.get(key)
            if model is None:
                model = load(path, threads)
                cache[key] = model
    return model


class Web2TextModel:
    """Both networks of one model directory, with its normaliser and lambda."""

    def __init__(self, model_dir: str | os.PathLike[str], threads: int = 1) -> None:
        self.model_dir = Path(model_dir)
        meta_path = self.model_dir / META_FILE
        meta = read_model_meta(
            "web2text", meta_path, self.model_dir / UNARY_FILE, self.model_dir / PAIRWISE_FILE
        )
        self.extended = bool(meta.get("extended", False))
        check_feature_names(meta, self.extended, meta_path, "scrapy-boilerplate train")
        self.meta = meta
        self.lam = float(meta["lambda"])
        # how many rows on each side a network's output sees (its "same"-padded kernels)
        kernels = meta.get("architecture", {}).get("kernels", DEFAULT_KERNELS)
        self.receptive_radius = sum(int(k) // 2 for k in kernels)
        self.normalizer = Normalizer.from_dict(meta["normalizer"])
        self.unary = inference_session(self.model_dir / UNARY_FILE, threads, "web2text")
        self.pairwise = inference_session(self.model_dir / PAIRWISE_FILE, threads, "web2text")

    def log_probs(self, blocks: np.ndarray, edges: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Unary (n x 2) and pairwise ((n-1) x 4) log-probabilities for raw features."""
        b, e = self.normalizer.transform(blocks, edges)
        n = len(b)
        if n == 0:
            return np.zeros((0, 2), np.float32), np.zeros((0, 4), np.float32)
        u = self._run(self.unary, b)
        p = self._run(self.pairwise, e) if n > 1 else np.zeros((0, 4), np.float32)
        return u, p

    def _run(self, session: Any, features: np.ndarray) -> np.ndarray:
        # long pages in chunks, each with the context its outputs see on either side, so
        # that the activations of a page of 50,000 blocks need not be held at once; the
        # outputs are those of one run (each position sees the same inputs)
        n = len(features)
        if n <= CHUNK_ROWS:
            return session.run(None, {"features": features[None]})[0][0]
        radius = self.receptive_radius
        parts = []
        for start in range(0, n, CHUNK_ROWS):
            end = min(start + CHUNK_ROWS, n)
            low, high = max(0, start - radius), min(n, end + radius)
            out = session.run(None, {"features": features[None, low:high]})[0][0]
            parts.append(out[start - low : start - low + end - start])
        return np.concatenate(parts)


def get_model(model_dir: str | os.PathLike[str] | None = None, threads: int = 1) -> Web2TextModel:
    """The process-wide model for a directory (the shipped one by default), loaded once."""
    return process_model(_models, Web2TextModel, model_dir, threads)
