#!/usr/bin/env python
"""How well the ``comments`` field finds readers' comments: ours beside trafilatura's
(``bare_extraction(include_comments=True)``'s ``comments``), on dragnet-test, the one
set whose references keep the comments apart (``comments_text``, see its README).

    python -m benchmarks.comments_accuracy [--limit N] [--extractor article]

On pages with comments: token F1, precision and recall (the evaluation's shingle
metric), averaged over pages (a page where nothing is found has F1 0 and no
precision). On pages whose reference has no comments: how many get some anyway (not all
are wrong: dragnet's annotators recorded no comments on some pages that have a thread).
Not a test: nothing is asserted.
"""

from __future__ import annotations

import argparse
import statistics
import sys
from collections.abc import Callable
from pathlib import Path

from scrapy_boilerplate import get_extractor
from scrapy_boilerplate.evaluation import open_dataset
from scrapy_boilerplate.evaluation.metrics import PageScore, score_page
from scrapy_boilerplate.registry import DEFAULT_EXTRACTOR

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT.parent / "shared" / "data"


def ours(extractor: str) -> Callable[[str, str | None], str]:
    chosen = get_extractor(extractor)
    return lambda html, url: chosen.extract(html, url, comments=True).comments or ""


def trafilatura_comments() -> Callable[[str, str | None], str] | None:
    try:
        from trafilatura import bare_extraction
    except ImportError:
        return None

    def run(html: str, url: str | None) -> str:
        document = bare_extraction(html, url=url, include_comments=True, with_metadata=False)
        return (getattr(document, "comments", None) or "") if document is not None else ""

    return run


def summary(scores: list[PageScore], found_on_none: int, pages_none: int) -> str:
    precisions = [s.precision for s in scores if s.precision is not None]
    recalls = [s.recall for s in scores if s.recall is not None]
    return (
        f"{statistics.mean(s.f1 for s in scores):.3f} | "
        f"{statistics.mean(precisions) if precisions else float('nan'):.3f} | "
        f"{statistics.mean(recalls):.3f} | {len(precisions)} | {found_on_none} of {pages_none}"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", default=str(DATA))
    parser.add_argument("--limit", type=int, default=None)
    parser.add_argument("--extractor", default=DEFAULT_EXTRACTOR)
    args = parser.parse_args(argv)
    runners = {f"scrapy-boilerplate ({args.extractor})": ours(args.extractor)}
    traf = trafilatura_comments()
    if traf is None:
        print("trafilatura not installed: skipped", file=sys.stderr)
    else:
        runners["trafilatura"] = traf
    scores: dict[str, list[PageScore]] = {name: [] for name in runners}
    found_on_none = dict.fromkeys(runners, 0)
    pages_with = pages_none = 0
    for page in open_dataset(Path(args.data) / "dragnet-test").iter_pages(limit=args.limit):
        truth = page.extras.get("comments_text")
        pages_with += bool(truth)
        pages_none += not truth
        for name, run in runners.items():
            found = run(page.html, page.url)
            if truth:
                scores[name].append(score_page(truth, found))
            else:
                found_on_none[name] += bool(found.strip())
    print(f"dragnet-test: {pages_with} pages with comments, {pages_none} without\n")
    print("| | F1 | precision | recall | pages found | found on pages without |")
    print("|---|---:|---:|---:|---:|---:|")
    for name in runners:
        print(f"| {name} | {summary(scores[name], found_on_none[name], pages_none)} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
