"""Encoder vectors of a dataset's block texts, computed once and kept on disk.

The sentence encoder costs seconds per page (a transformer pass per block), so the
training command and the benchmarks encode each distinct block text of a set once and
store the vectors (float16, both poolings) under a key of the set's folder and the
encoder; later runs load them. Texts are the blocks of :func:`~scrapy_boilerplate.training.
dataset.parse_page`, exactly what the labeler encodes at run time.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Callable, Collection
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ..evaluation.datasets import JsonlDataset
from ..neural.lm_encoder import ENCODER_NAME, MAX_TOKENS, SentenceEncoder
from .dataset import parse_page

__all__ = ["VectorCache", "dataset_texts", "encode_dataset"]

#: texts per encoder call while filling a cache (progress is logged between calls)
CHUNK = 4096


@dataclass
class VectorCache:
    """Distinct texts and their vectors (rows in the same order)."""

    texts: list[str]
    cls: np.ndarray  # n x width float16
    mean: np.ndarray

    def save(self, path: Path) -> None:
        """Write ``path``.npz (vectors) and ``path``.json (texts)."""
        path.parent.mkdir(parents=True, exist_ok=True)
        np.savez(str(path) + ".npz", cls=self.cls, mean=self.mean)
        Path(str(path) + ".json").write_text(json.dumps(self.texts), encoding="utf-8")

    @classmethod
    def load(cls, path: Path) -> VectorCache:
        """Read what :meth:`save` wrote."""
        data = np.load(str(path) + ".npz")
        texts = json.loads(Path(str(path) + ".json").read_text(encoding="utf-8"))
        return cls(texts, data["cls"], data["mean"])


def dataset_texts(
    dataset_dir: str | os.PathLike[str],
    limit: int | None = None,
    page_types: Collection[str] | None = None,
) -> list[str]:
    """The distinct block texts of a set's pages (of ``page_types``, for a set that names
    them), in first-seen order."""
    seen: dict[str, None] = {}
    for page in JsonlDataset(dataset_dir).iter_pages(limit):
        page_type = page.extras.get("page_type")
        if page_types is not None and page_type is not None and page_type not in page_types:
            continue
        for block in parse_page(page.html).blocks:
            seen.setdefault(block.text)
    return list(seen)


def _key(
    dataset_dir: str | os.PathLike[str], limit: int | None, page_types: Collection[str] | None
) -> str:
    parts: tuple = (str(Path(dataset_dir).resolve()), limit, ENCODER_NAME, MAX_TOKENS)
    if page_types is not None:  # the key of every page type stays what it was
        parts += (sorted(page_types),)
    return hashlib.sha256(repr(parts).encode()).hexdigest()[:16]


def encode_dataset(
    encoder: SentenceEncoder,
    dataset_dir: str | os.PathLike[str],
    cache_dir: str | os.PathLike[str],
    limit: int | None = None,
    log: Callable[[str], None] | None = None,
    page_types: Collection[str] | None = None,
) -> VectorCache:
    """The set's vector cache (of its pages of ``page_types``), loaded from
    ``cache_dir`` or computed and saved there. A cache of every page type serves too."""
    name = Path(dataset_dir).name
    path = Path(cache_dir) / f"lm-{name}-{_key(dataset_dir, limit, page_types)}"
    whole = Path(cache_dir) / f"lm-{name}-{_key(dataset_dir, limit, None)}"
    for candidate in (path, whole):
        if Path(str(candidate) + ".npz").exists():
            return VectorCache.load(candidate)
    texts = dataset_texts(dataset_dir, limit, page_types)
    width = encoder.width
    cls = np.zeros((len(texts), width), np.float16)
    mean = np.zeros((len(texts), width), np.float16)
    for start in range(0, len(texts), CHUNK):
        out = encoder.encode(texts[start : start + CHUNK])
        cls[start : start + CHUNK] = out.cls
        mean[start : start + CHUNK] = out.mean
        if log:
            log(f"{name}: {min(start + CHUNK, len(texts))}/{len(texts)} texts encoded")
    cache = VectorCache(texts, cls, mean)
    cache.save(path)
    return cache
