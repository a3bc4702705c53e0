"""Extraction over many WARC files with Dask (the ``[dask]`` extra): a bag with one
partition per file, on whatever cluster the caller's Dask client runs (a
``LocalCluster``, dask-jobqueue on Slurm, Kubernetes, ...).

    from dask.distributed import Client
    from scrapy_boilerplate.archives.dask_bag import extract_warcs

    client = Client(n_workers=8, threads_per_worker=1)
    bag = extract_warcs(sorted(glob.glob("crawl/*.warc.gz")))
    bag.map(json.dumps).to_textfiles("out/*.jsonl.gz")

Extraction holds the GIL for most of its time: give Dask workers one thread each and as
many processes as cores.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator, Sequence
from typing import Any

try:
    import dask.bag
except ImportError as exc:  # pragma: no cover - depends on the install
    raise ImportError(
        "the Dask helper needs dask: pip install 'scrapy-boilerplate-removal[dask]'"
    ) from exc

from ..extraction import get_extractor
from ..registry import DEFAULT_EXTRACTOR
from .batch import extract_pages
from .records import Skipped
from .sources import iter_archive

__all__ = ["extract_warcs"]


def extract_warcs(
    paths: Sequence[str | os.PathLike[str]],
    extractor: Any = DEFAULT_EXTRACTOR,
    *,
    timeout: float | None = 10.0,
    include_skips: bool = False,
) -> dask.bag.Bag:
    """A Dask bag of results, one per HTML response record of the archives at ``paths``
    (WARC files, or HTTP cache directories), each as ``scrapy-boilerplate extract
    --format jsonl`` prints it. With ``include_skips``, every skipped record is in the
    bag too, as ``{"skipped": reason, "source": ..., "url": ..., "detail": ...}``, so
    that ``bag.pluck("skipped", None).frequencies()`` accounts for each record.

    Lazy, like any bag: nothing runs until it is computed or written. A partition (one
    archive's results, text without the HTML) is held in memory by the worker that made
    it until it is written or gathered.
    """
    names = [os.fspath(p) for p in paths]
    bag = dask.bag.from_sequence(names, npartitions=max(len(names), 1))
    return bag.map_partitions(
        _extract_partition, extractor=extractor, timeout=timeout, include_skips=include_skips
    )


def _extract_partition(
    paths: Iterable[str], extractor: Any, timeout: float | None, include_skips: bool
) -> list[dict[str, Any]]:
    # a list: a partition's result crosses processes, and generators do not pickle
    return list(_extract_paths(paths, extractor, timeout, include_skips))


def _extract_paths(
    paths: Iterable[str], extractor: Any, timeout: float | None, include_skips: bool
) -> Iterator[dict[str, Any]]:
    built = get_extractor(extractor)  # once per partition: named extractors are cached
    for path in paths:
        for item in iter_archive(path):
            if not isinstance(item, Skipped):
                yield from extract_pages((item,), built, timeout=timeout)
            elif include_skips:
                yield {
                    "skipped": item.reason,
                    "source": item.source,
                    "url": item.url,
                    "detail": item.detail,
                }
