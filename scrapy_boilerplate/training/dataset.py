"""Training data for the Web2Text networks: raw features and automatic block labels.

A page becomes the raw block features (n x 128), edge features ((n-1) x 25) and block
labels (1 content, 0 boilerplate, -1 unknown) of its parsed blocks. Labels come from
:func:`~scrapy_boilerplate.training.alignment.label_blocks` when the set has the page's
full clean text, else from its must / must-not snippets (trafilatura-eval), which label
only the blocks holding a snippet.

Only the sets that ``shared/data/README.md`` marks "may train the shipped model" are in
:data:`SHIPPED_TRAINING_SETS`; the ``train`` command refuses others unless told
``--allow-any-set`` (for experiments that do not ship).
"""

from __future__ import annotations

import hashlib
import multiprocessing
import os
from collections.abc import Callable, Collection, Iterable, Sequence
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any

import numpy as np

from ..document import Document
from ..neural.features import page_features
from ..parse import parse_html
from .alignment import label_blocks, label_blocks_from_snippets

__all__ = [
    "EVALUATION_ONLY_SETS",
    "SHIPPED_TRAINING_SETS",
    "PageData",
    "Corpus",
    "block_labels",
    "page_data",
    "build_corpus",
    "code_version",
    "map_pages",
    "load_fields",
    "save_fields",
    "MIN_RECOVERED",
    "site_groups",
    "site_of",
]

#: the sets the shipped model may train on (shared/data/README.md), with their licences
SHIPPED_TRAINING_SETS: dict[str, str] = {
    "wcxb-dev": "CC-BY-4.0",
    "mozilla-readability": "Apache-2.0",
    "zh-cwced-dev": "MIT",
    "trafilatura-eval": "Apache-2.0 (snippets only)",
}
#: the sets that may only evaluate (shared/data/README.md): no shipped model trains on
#: them, so they are the evidence of how a model does on pages it never saw
EVALUATION_ONLY_SETS: tuple[str, ...] = (
    "cleaneval-train",
    "cleanportaleval",
    "dragnet-test",
    "htmltotext-benchmark",
    "l3s-gn1",
    "utomo-big9",
)
#: pages whose reference the alignment recovers less of are left out (reference and
#: HTML disagree: the labels would be noise)
MIN_RECOVERED = 0.5


@dataclass
class PageData:
    """One page's raw features and labels."""

    dataset: str
    page_id: str
    blocks: np.ndarray  # n x 128 float32
    edges: np.ndarray  # (n-1) x 25 float32
    labels: np.ndarray  # n int8: 1, 0 or -1 (unknown)
    recovered: float | None = None  # share of the reference the alignment recovered


def parse_page(html: str) -> Document:
    """A training page parsed as the learned extractors read it when they run (plugin
    elements as a browser shows them: ``parse_html``'s ``plugin_fallbacks``), so that a
    labeler learns from the blocks it will be given."""
    return parse_html(html, plugin_fallbacks=True)


def page_data(
    dataset: str,
    page_id: str,
    html: str,
    main_text: str | None,
    with_snippets: Sequence[str] | None = None,
    without_snippets: Sequence[str] | None = None,
) -> PageData | None:
    """Parse, featurise and label one page (None if it has no blocks or no usable label)."""
    doc = parse_page(html)
    labelled = block_labels(doc.blocks, main_text, with_snippets, without_snippets)
    if labelled is None:
        return None
    labels, recovered = labelled
    blocks, edges = page_features(doc, extended=True)  # training may drop the extension
    return PageData(dataset, page_id, blocks, edges, np.asarray(labels, dtype=np.int8), recovered)


def block_labels(
    blocks: Sequence[Any],
    main_text: str | None,
    with_snippets: Sequence[str] | None = None,
    without_snippets: Sequence[str] | None = None,
    count_whitespace: bool = True,
) -> tuple[list[int], float | None] | None:
    """A parsed page's block labels (1, 0, -1 unknown) and the share of its reference the
    alignment recovered (None for snippet labels); None when the page gives no usable
    label: no blocks, too little of the reference recovered, no snippet found.
    ``count_whitespace`` as in :func:`~scrapy_boilerplate.training.alignment.label_blocks`."""
    if not blocks:
        return None
    if main_text and main_text.strip():
        labels, result = label_blocks(blocks, main_text, count_whitespace)
        if result.recovered < MIN_RECOVERED:
            return None
        return labels, result.recovered
    if with_snippets or without_snippets:
        labels = label_blocks_from_snippets(blocks, with_snippets, without_snippets)
        if all(v < 0 for v in labels):
            return None
        return labels, None
    return None


def _work(args: tuple[Any, ...]) -> PageData | str | None:
    try:
        return page_data(*args)
    except Exception as exc:  # noqa: BLE001 - one odd page must not stop a long build
        return f"{args[0]}/{args[1]}: {type(exc).__name__}: {exc}"


@dataclass
class Corpus:
    """Pages concatenated: block rows, edge rows and per-page offsets."""

    blocks: np.ndarray
    edges: np.ndarray
    labels: np.ndarray
    block_offsets: np.ndarray  # page p: blocks[block_offsets[p]:block_offsets[p+1]]
    edge_offsets: np.ndarray
    datasets: list[str] = field(default_factory=list)
    page_ids: list[str] = field(default_factory=list)

    def __len__(self) -> int:
        return len(self.page_ids)

    def page(self, p: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        b0, b1 = self.block_offsets[p], self.block_offsets[p + 1]
        e0, e1 = self.edge_offsets[p], self.edge_offsets[p + 1]
        return self.blocks[b0:b1], self.edges[e0:e1], self.labels[b0:b1]

    @classmethod
    def from_pages(cls, pages: Iterable[PageData]) -> Corpus:
        pages = list(pages)
        bo = np.zeros(len(pages) + 1, dtype=np.int64)
        eo = np.zeros(len(pages) + 1, dtype=np.int64)
        for i, p in enumerate(pages):
            bo[i + 1] = bo[i] + len(p.blocks)
            eo[i + 1] = eo[i] + len(p.edges)
        nb = pages[0].blocks.shape[1] if pages else 128
        ne = pages[0].edges.shape[1] if pages else 25
        empty_b = np.zeros((0, nb), dtype=np.float32)
        empty_e = np.zeros((0, ne), dtype=np.float32)
        return cls(
            blocks=np.concatenate([p.blocks for p in pages]) if pages else empty_b,
            edges=np.concatenate([p.edges for p in pages] + [empty_e]),
            labels=np.concatenate([p.labels for p in pages]) if pages else np.zeros(0, np.int8),
            block_offsets=bo,
            edge_offsets=eo,
            datasets=[p.dataset for p in pages],
            page_ids=[p.page_id for p in pages],
        )

    def subset(self, indices: Sequence[int]) -> Corpus:
        pages = []
        for p in indices:
            b, e, y = self.page(p)
            pages.append(PageData(self.datasets[p], self.page_ids[p], b, e, y))
        return Corpus.from_pages(pages)

    def save(self, path: str | os.PathLike[str]) -> None:
        save_fields(self, path)

    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> Corpus:
        return load_fields(cls, path)


def save_fields(corpus: Any, path: str | os.PathLike[str]) -> None:
    """Store a corpus dataclass's fields in one compressed ``.npz``, an array per field
    (its list fields, the names, as object arrays)."""
    np.savez_compressed(
        path,
        **{
            f.name: np.array(value, dtype=object) if isinstance(value, list) else value
            for f in fields(corpus)
            for value in (getattr(corpus, f.name),)
        },
    )


def load_fields(cls: Any, path: str | os.PathLike[str]) -> Any:
    """The corpus dataclass ``cls`` that :func:`save_fields` stored in ``path``."""
    z = np.load(path, allow_pickle=True)
    values = (z[f.name] for f in fields(cls))
    return cls(*(list(v) if v.dtype == object else v for v in values))


def _jobs(
    dataset_dirs: Sequence[str | os.PathLike[str]],
    limit: int | None,
    page_types: Collection[str] | None = None,
) -> Iterable[tuple]:
    from ..evaluation.datasets import open_dataset

    for d in dataset_dirs:
        ds = open_dataset(d)
        for page in ds.iter_pages(limit=limit):
            page_type = page.extras.get("page_type")
            if page_types is not None and page_type is not None and page_type not in page_types:
                continue
            yield (
                ds.name,
                page.id,
                page.html,
                page.main_text,
                page.with_snippets,
                page.without_snippets,
            )


def build_corpus(
    dataset_dirs: Sequence[str | os.PathLike[str]],
    *,
    limit: int | None = None,
    processes: int = 1,
    cache: str | os.PathLike[str] | None = None,
    log: Any = None,
    page_types: Collection[str] | None = None,
) -> Corpus:
    """Featurise and label every page of the given dataset folders (in order).

    ``page_types``: keep only pages whose record's ``page_type`` is one of these (pages of
    sets without page types are all kept). With ``cache`` (a directory), the corpus is
    saved there under a key made of the folders, the limit, the page types and the feature
    code, and loaded from there next time.
    """
    types = sorted(page_types) if page_types is not None else None
    cache_file = None
    if cache is not None:
        folders = [str(Path(d).resolve()) for d in dataset_dirs]
        # the key of a corpus of every page type stays what it was before page types
        parts: tuple = (folders, limit, code_version())
        if types is not None:
            parts += (types,)
        key = hashlib.sha256(repr(parts).encode()).hexdigest()[:16]
        cache_file = Path(cache) / f"web2text-corpus-{key}.npz"
        if cache_file.exists():
            if log:
                log(f"corpus: loading {cache_file}")
            return Corpus.load(cache_file)
    pages = map_pages(_work, _jobs(dataset_dirs, limit, types), processes, log)
    corpus = Corpus.from_pages(pages)
    if cache_file is not None:
        cache_file.parent.mkdir(parents=True, exist_ok=True)
        corpus.save(cache_file)
    return corpus


def site_of(dataset: str, page_id: str, url: str | None) -> str:
    """A page's site: the host of its URL without ``www.`` (of the archived URL for a
    web.archive.org copy), or ``<set>:<page id>`` when the set gives no URL. Splits that
    keep a site's pages together use it, across sets."""
    from ..site_memory import site_of_url

    return site_of_url(url) or f"{dataset}:{page_id}"


def site_groups(dataset_dirs: Sequence[str | os.PathLike[str]], corpus: Corpus) -> list[str]:
    """Each corpus page's site (:func:`site_of`)."""
    from ..evaluation.datasets import open_dataset

    sites: dict[tuple[str, str], str] = {}
    for d in dataset_dirs:
        ds = open_dataset(d)
        for page in ds.iter_labels():
            sites[(ds.name, page.id)] = site_of(ds.name, page.id, page.url)
    return [
        sites.get((name, pid), f"{name}:{pid}")
        for name, pid in zip(corpus.datasets, corpus.page_ids, strict=True)
    ]


#: How :func:`map_pages` starts its workers. ``"forkserver"`` (the default; ``"spawn"``
#: where there is none): children of a clean process, so that a caller's threads
#: (onnxruntime's, OpenMP's, a crawl's) cannot leave a lock held in them, which is how a
#: forked corpus worker once hung. ``"fork"``: children of the caller, who see what it
#: patched in memory; the experiments in ``benchmarks/``, which patch the feature code,
#: set it around their corpus builds (``benchmarks.forked_corpus_workers``).
CORPUS_START_METHOD = "forkserver"


def _worker_context() -> multiprocessing.context.BaseContext:
    if CORPUS_START_METHOD == "fork" and "fork" in multiprocessing.get_all_start_methods():
        return multiprocessing.get_context("fork")
    from ..parallel.process_pool import process_context

    return process_context()


def map_pages(
    work: Callable[[tuple[Any, ...]], Any],
    jobs: Iterable[tuple[Any, ...]],
    processes: int = 1,
    log: Any = None,
) -> list[Any]:
    """``work(job)`` for every page job, in ``processes`` processes (started as
    :data:`CORPUS_START_METHOD` says), in order: the results that are neither None (no
    usable label) nor a string (a page that failed, logged)."""
    kept: list[Any] = []
    errors: list[str] = []

    def collect(results: Iterable[Any]) -> None:
        for i, result in enumerate(results):
            if isinstance(result, str):
                errors.append(result)
            elif result is not None:
                kept.append(result)
            if log and (i + 1) % 500 == 0:
                log(f"corpus: {i + 1} pages read, {len(kept)} kept")

    if processes > 1:
        with _worker_context().Pool(processes) as pool:
            collect(pool.imap(work, jobs, chunksize=4))
    else:
        collect(map(work, jobs))
    if errors and log:
        log(f"corpus: {len(errors)} pages failed, e.g. {errors[0]}")
    return kept


#: the package's own folder: its source is what a cached corpus was computed by
PACKAGE_DIR = Path(__file__).resolve().parent.parent
#: the files of the package that are code (a cached corpus's key hashes them)
CODE_SUFFIXES = (".py", ".pyx", ".pxd")


def code_version(package_dir: Path = PACKAGE_DIR) -> str:
    """A hash of the package's source files (``.py``, ``.pyx``, ``.pxd``), in path order: a
    cached corpus is rebuilt when any of them changes. The whole package and not a list
    of modules: a corpus's rows come from the parser, the segmenter, the collapsed DOM,
    the text statistics and the columns (a list of two modules once let a changed
    collapsed DOM reuse a corpus computed before the change)."""
    h = hashlib.sha256()
    for path in sorted(package_dir.rglob("*")):
        if path.suffix in CODE_SUFFIXES and path.is_file():
            h.update(path.relative_to(package_dir).as_posix().encode() + b"\0")
            h.update(path.read_bytes())
    return h.hexdigest()[:12]
