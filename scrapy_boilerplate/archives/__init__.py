"""Extraction from stored pages: web archives (WARC) and Scrapy's HTTP cache.

* ``records``: what a reader yields, a page (:class:`ArchivedPage`) or a counted skip
  (:class:`Skipped`, with its reason);
* ``warc``: WARC / WARC.gz files, read with FastWARC (the ``[warc]`` extra);
* ``httpcache``: a Scrapy ``HTTPCACHE_DIR`` (filesystem storage);
* ``batch``: pages in, results out, in order, in this process or in worker processes;
* ``datatrove_step`` and ``dask_bag``: the same for datatrove pipelines and Dask (their
  extras).

Imports no Scrapy; the readers import their libraries when first called.
"""

from .records import ArchivedPage, Skipped
from .sources import is_archive, iter_archive

__all__ = ["ArchivedPage", "Skipped", "iter_archive", "is_archive"]
