"""``scrapy-boilerplate extract`` over archives: WARC files and Scrapy HTTP caches,
streamed to standard output, with a progress bar on a terminal and a summary at the end.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any, TextIO

from ..extraction import FORMATS, Extractor
from .batch import BatchSummary, extract_pages
from .records import ArchivedPage, Skipped
from .sources import iter_archive

__all__ = ["extract_archives"]


def _all_records(paths: Sequence[str]) -> Iterator[ArchivedPage | Skipped]:
    for path in paths:
        yield from iter_archive(path)


def extract_archives(
    paths: Sequence[str],
    extractor: Extractor,
    *,
    output_format: str = "jsonl",
    workers: int = 1,
    timeout: float | None = None,
    progress: bool | None = None,
    metadata: bool = False,
    comments: bool = False,
    site_memory: int = 0,
    out: TextIO | None = None,
    err: TextIO | None = None,
) -> BatchSummary:
    """Extract every HTML response of the archives at ``paths`` and write the results to
    ``out`` as they come: ``jsonl`` (one JSON object a line: the record's url,
    record_id, date, status, source and the extraction), ``json`` (the same, as one
    array), or ``text``, ``markdown`` or ``html`` (each page's content in that form
    after a ``==> url <==`` line).

    ``progress``: a bar on ``err`` (None: when ``err`` is a terminal and tqdm is
    installed). ``metadata``: each result carries the article's metadata; ``comments``:
    its readers' comments (the JSON formats). ``site_memory``: the sites whose template
    is remembered from page to page, as a crawl does (0: each page alone). The summary
    line goes to ``err`` at the end and is returned.
    """
    out = out if out is not None else sys.stdout
    err = err if err is not None else sys.stderr
    summary = BatchSummary()
    formats = (output_format,) if output_format in FORMATS else ()
    if metadata:
        formats += ("metadata",)
    if comments:
        formats += ("comments",)
    results = extract_pages(
        _all_records(paths),
        extractor,
        workers=workers,
        timeout=timeout,
        summary=summary,
        formats=formats,
        site_memory=site_memory,
    )
    first = True
    with _progress_bar(err, progress, summary) as tick:
        if output_format == "json":
            out.write("[")
        for result in results:
            _write(out, output_format, result, first)
            first = False
            tick()
        if output_format == "json":
            out.write("\n]\n" if not first else "]\n")
    out.flush()
    print(f"scrapy-boilerplate: {summary.line()}", file=err)
    return summary


def _write(out: TextIO, output_format: str, result: dict[str, Any], first: bool) -> None:
    if output_format in ("text", *FORMATS):
        out.write(f"==> {result['url']} <==\n{result.get(output_format, '')}\n\n")
    elif output_format == "json":
        out.write(("\n" if first else ",\n") + json.dumps(result, ensure_ascii=False))
    else:
        out.write(json.dumps(result, ensure_ascii=False) + "\n")


@contextmanager
def _progress_bar(err: TextIO, wanted: bool | None, summary: BatchSummary) -> Iterator[Any]:
    """A callable counting results on a tqdm bar (with ``summary``'s errors), or doing
    nothing without one."""
    if wanted is None:
        wanted = err.isatty()
    tqdm = None
    if wanted:
        try:
            from tqdm import tqdm
        except ImportError:  # the bar is a nicety: without tqdm, the summary still comes
            tqdm = None
    if tqdm is None:
        yield lambda: None
        return
    shown = 0
    with tqdm(file=err, unit=" pages", dynamic_ncols=True, mininterval=0.5) as bar:

        def tick() -> None:
            nonlocal shown
            if summary.errors != shown:  # counted as the summary counts them
                shown = summary.errors
                bar.set_postfix(errors=shown, refresh=False)
            bar.update()

        yield tick
