#!/usr/bin/env python
"""Milliseconds per page of our extractors, parse included, robust to a noisy machine.

    python -m benchmarks.extract_speed                       # every set, 3 repeats
    python -m benchmarks.extract_speed --sets wcxb-dev,htmltotext-benchmark \\
        --extractors cetr,article --repeat 5 --json out.json
    python -m benchmarks.extract_speed --sets wcxb-dev --extractors boosted,lxml \\
        --chain 'boosted_before=[{"boosted": {"model_dir": "/tmp/old-model"}}]'

What ``scrapy-boilerplate evaluate`` times (decoded page in, text out: parse, filters,
render), for every page of every set, but each page ``--repeat`` times, the extractors
interleaved page by page (in an order that turns from round to round, so no extractor is
always the first to run), and the page's time taken as the minimum of its repeats. Any
runner of the evaluate command can be named beside ours: ``lxml`` (a bare parse, the floor
every lxml-based extractor pays) and the other libraries (``trafilatura_no_comments``,
``readability``, ...; the ``[bench]`` extra), so ratios come from one run. On a
shared machine other tenants slow single runs by 20-100% (the same code measured 5.9 and
7.2 ms median on wcxb-dev in two whole-set runs); the minimum of a few repeats is the
page's cost when nothing else interferes, which removes short bursts (not a neighbour busy
for minutes: compare the ratios to ``article``, which move far less). Reported per set
and extractor: the median over pages of those minima (wall and CPU), the median of the
first repeat alone (what one evaluate pass would show), and the ratios to ``article`` and
to ``lxml`` in the same run (when they are among the extractors).

``--block N`` interleaves the extractors by runs of N pages instead (each runs N pages
back to back, then the next; the order still turns): what a worker process sees, page
after page of one extractor. Page by page, each extractor starts on caches the one
before it filled (trafilatura's working set is large): `boosted` measured 4 % slower
that way than with ``--block 25`` in the same phase, lxml 1 %.

``--chain NAME=SPEC`` times a chain spec (JSON, as ``get_extractor`` takes it) beside
the named ones, under NAME: an older model's directory against the shipped one, in one
run.

Not a test: nothing is asserted. Results go to stdout (and ``--json FILE``).
"""

from __future__ import annotations

import argparse
import itertools
import json
import statistics
import sys
import time
from pathlib import Path

from scrapy_boilerplate.evaluation import find_datasets
from scrapy_boilerplate.evaluation.runners import Runner, chain_runner, get_runner
from scrapy_boilerplate.registry import DEFAULT_EXTRACTOR

from .speed import turned

DEFAULT_DATA = Path(__file__).resolve().parents[2] / "shared" / "data"
DEFAULT_EXTRACTORS = f"{DEFAULT_EXTRACTOR},cetd,cetd_tpc,cepr,cetr,bte,web2text,article,lxml"


def time_set(
    dataset, extractors: dict[str, Runner], repeat: int, limit: int | None, block: int = 1
) -> dict[str, dict]:
    """Per extractor: per-page minimum wall and CPU ms over the repeats, and the first.
    ``block``: how many pages an extractor runs before the next one takes over (1: page
    by page)."""
    names = list(extractors)
    for extractor in extractors.values():
        extractor("<p>warm up</p>", None, None)  # lazy model loads are not a page's cost
    wall: dict[str, list[float]] = {n: [] for n in names}
    cpu: dict[str, list[float]] = {n: [] for n in names}
    first: dict[str, list[float]] = {n: [] for n in names}
    pages = dataset.iter_pages(limit=limit)
    for index, chunk in enumerate(iter(lambda: list(itertools.islice(pages, block)), [])):
        best_wall = {n: [float("inf")] * len(chunk) for n in names}
        best_cpu = {n: [float("inf")] * len(chunk) for n in names}
        for round_ in range(repeat):
            # the order turns from round to round and block to block: the first extractor
            # of a round measured slower than the same chain later in it (7.10 / 6.90 ms)
            for name in turned(names, index + round_):
                extractor = extractors[name]
                for i, page in enumerate(chunk):
                    c0, w0 = time.process_time(), time.perf_counter()
                    extractor(page.html, page.url, page.lang)
                    w1, c1 = time.perf_counter(), time.process_time()
                    best_wall[name][i] = min(best_wall[name][i], w1 - w0)
                    best_cpu[name][i] = min(best_cpu[name][i], c1 - c0)
                    if round_ == 0:
                        first[name].append((w1 - w0) * 1000)
        for name in names:
            wall[name].extend(t * 1000 for t in best_wall[name])
            cpu[name].extend(t * 1000 for t in best_cpu[name])
    return {
        name: {
            "pages": len(wall[name]),
            "median_ms": statistics.median(wall[name]) if wall[name] else None,
            "median_cpu_ms": statistics.median(cpu[name]) if cpu[name] else None,
            "first_pass_median_ms": statistics.median(first[name]) if first[name] else None,
        }
        for name in names
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("data", nargs="?", default=str(DEFAULT_DATA), help="data folder")
    parser.add_argument("--sets", default="", help="comma-separated set names (default: all)")
    parser.add_argument("--extractors", default=DEFAULT_EXTRACTORS)
    parser.add_argument("--repeat", type=int, default=3, help="timings per page (default 3)")
    parser.add_argument("--limit", type=int, default=None, help="first N pages of each set")
    parser.add_argument("--json", type=Path, help="also write the results here")
    parser.add_argument(
        "--block",
        type=int,
        default=1,
        help="pages each extractor runs before the next takes over (default 1: page by page)",
    )
    parser.add_argument(
        "--chain",
        action="append",
        default=[],
        metavar="NAME=SPEC",
        help="also time a chain spec (JSON) under NAME (repeatable)",
    )
    args = parser.parse_args(argv)
    runners = {name: get_runner(name) for name in args.extractors.split(",") if name}
    for item in args.chain:
        name, sep, spec = item.partition("=")
        if not sep or not name:
            parser.error(f"--chain wants NAME=SPEC, not {item!r}")
        runners[name] = chain_runner(json.loads(spec), name)
    for name, runner in list(runners.items()):
        if not runner.available:
            print(f"skipped {name}: {runner.reason}", file=sys.stderr)
            del runners[name]
    wanted = [s for s in args.sets.split(",") if s]
    datasets = [d for d in find_datasets([args.data]) if not wanted or d.name in wanted]
    results: dict[str, dict] = {}
    print(
        f"median ms per page over each page's best of {args.repeat} (wall / CPU), "
        "first pass alone, ratios to article and to lxml (best-of wall); "
        + ("page by page" if args.block == 1 else f"each extractor {args.block} pages in turn")
    )
    for dataset in datasets:
        results[dataset.name] = rows = time_set(
            dataset, runners, args.repeat, args.limit, args.block
        )
        bases = [rows.get(b, {}).get("median_ms") for b in ("article", "lxml")]
        print(f"\n{dataset.name} ({next(iter(rows.values()))['pages']} pages)")
        for name, r in rows.items():
            if r["median_ms"] is None:
                continue
            ratios = "  ".join(
                f"{r['median_ms'] / base:6.2f}x" if base else "      -" for base in bases
            )
            print(
                f"  {name:24} {r['median_ms']:7.2f} / {r['median_cpu_ms']:7.2f}   "
                f"first pass {r['first_pass_median_ms']:7.2f}   {ratios}"
            )
    if args.json:
        args.json.write_text(
            json.dumps({"repeat": args.repeat, "block": args.block, "sets": results}, indent=1)
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
