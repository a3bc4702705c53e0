#!/usr/bin/env python
"""A worker process's CPU per page with Python's garbage collector as it comes, as
``prepare_worker`` sets it, and off.

    python -m benchmarks.worker_collector                     # news pages, 5 rounds
    python -m benchmarks.worker_collector --sets wcxb-dev --limit 300 --rounds 3

What a worker of ``BOILERPLATE_EXECUTOR = "process"`` runs for each response: the
pickled call as the crawl sends it (the default extractor's pickle, the body as bytes with
its encoding, the crawl's time budget and memory of each site) answered by the worker's
own ``_answer``, the reply pickled. The collector settings alternate round by round in
one process, so a busy phase of the machine hits them alike:

- ``python``: Python's defaults (the youngest generation collected every 700
  allocations, every object the process holds scanned by the older generations'
  collections);
- ``worker``: :func:`~scrapy_boilerplate.parallel.process_pool.prepare_worker`, what a
  worker does before it says it is ready (what it holds frozen out of later scans, the
  youngest generation collected every ``WORKER_GC_THRESHOLD`` allocations);
- ``off``: no cyclic collection at all (a floor, not a setting: a worker must free the
  cycles its pages leave).

Reported: the median over rounds of each setting's CPU ms per page, and its ratio to
``python``. With ``--memory N``, also each of ``python`` and ``worker`` in a fresh process
of its own answering N calls (the pages in turn), its resident memory after each
thousand: a worker's memory must stay flat with the collector run less often. Not a test: nothing is asserted. Results go to stdout (and ``--json FILE``).
"""

from __future__ import annotations

import argparse
import gc
import json
import multiprocessing
import pickle
import statistics
import time
from pathlib import Path

from scrapy_boilerplate.evaluation import find_datasets
from scrapy_boilerplate.extraction import get_extractor
from scrapy_boilerplate.parallel import process_pool
from scrapy_boilerplate.parallel.worker import EncodedPage, extract_pickled
from scrapy_boilerplate.registry import DEFAULT_EXTRACTOR
from scrapy_boilerplate.settings import DEFAULTS

from .speed import rss_mb, turned

DEFAULT_DATA = Path(__file__).resolve().parents[2] / "shared" / "data"
SETTINGS = ("python", "worker", "off")
_PYTHON_THRESHOLDS = gc.get_threshold()


def named_sets(data: str, names: list[str]) -> list:
    """The sets of the data folder ``data`` that ``names`` names."""
    return [d for d in find_datasets([data]) if d.name in names]


def news_pages_parser(doc: str) -> argparse.ArgumentParser:
    """The command line of a benchmark that reads the news pages by default (its
    description the first paragraph of ``doc``): the data folder and ``--sets``; read
    the sets with :func:`chosen_sets`."""
    parser = argparse.ArgumentParser(description=doc.split("\n\n")[0])
    parser.add_argument("data", nargs="?", default=str(DEFAULT_DATA), help="data folder")
    parser.add_argument("--sets", default="l3s-gn1,dragnet-test", help="comma-separated sets")
    return parser


def chosen_sets(parser: argparse.ArgumentParser, data: str, sets: str) -> tuple[list[str], list]:
    """The names a ``--sets`` option gives (comma-separated) and the sets of ``data`` they
    name; the command's usage error if they name none."""
    wanted = [name for name in sets.split(",") if name]
    datasets = named_sets(data, wanted)
    if not datasets:
        parser.error(f"no set named {sets!r} in {data}")
    return wanted, datasets


def crawl_calls(datasets, limit: int | None, extractor: str = DEFAULT_EXTRACTOR) -> list[bytes]:
    """The pickled calls a crawl sends its worker for the first ``limit`` pages of each
    set: UTF-8 bodies, the default budget and memory of each site."""
    pickled = pickle.dumps(get_extractor(extractor))
    timeout, sites = DEFAULTS["BOILERPLATE_TIMEOUT"], DEFAULTS["BOILERPLATE_SITE_MEMORY"]
    calls = []
    for dataset in datasets:
        for page in dataset.iter_pages(limit=limit):
            body = EncodedPage(page.html.encode("utf-8"), "utf-8")
            args = (pickled, body, page.url, timeout, (), sites)
            calls.append(pickle.dumps((extract_pickled, args), process_pool._PROTOCOL))
    return calls


def set_collector(setting: str) -> None:
    """Put this process's collector in one of :data:`SETTINGS`."""
    gc.enable()
    gc.unfreeze()
    gc.set_threshold(*_PYTHON_THRESHOLDS)
    if setting == "worker":
        process_pool.prepare_worker()
    elif setting == "off":
        gc.disable()
    elif setting != "python":
        raise ValueError(f"unknown collector setting {setting!r}")


def time_calls(calls: list[bytes], rounds: int) -> dict[str, list[float]]:
    """Per setting, the CPU ms per page of each round (the settings' order turns)."""
    for call in calls[:20]:  # the model's first runs and the caches are no page's cost
        process_pool._answer(call)
    per_round: dict[str, list[float]] = {s: [] for s in SETTINGS}
    try:
        for round_ in range(rounds):
            for setting in turned(SETTINGS, round_):
                set_collector(setting)
                start = time.process_time()
                for call in calls:
                    process_pool._answer(call)
                per_round[setting].append((time.process_time() - start) * 1000 / len(calls))
    finally:
        set_collector("python")
    return per_round


def memory_run(
    setting: str, data: str, sets: list[str], limit: int | None, count: int
) -> list[float]:
    """In a fresh process: the collector set to ``setting``, ``count`` calls answered
    (the pages in turn); the resident MB after each thousand calls (and at the end)."""
    datasets = named_sets(data, sets)
    calls = crawl_calls(datasets, limit)
    set_collector(setting)
    sizes = []
    for i in range(count):
        process_pool._answer(calls[i % len(calls)])
        if (i + 1) % 1000 == 0 or i + 1 == count:
            sizes.append(rss_mb())
    return sizes


def main(argv: list[str] | None = None) -> int:
    parser = news_pages_parser(__doc__)
    parser.add_argument("--limit", type=int, default=200, help="first N pages of each set")
    parser.add_argument("--rounds", type=int, default=5, help="passes per setting")
    parser.add_argument("--json", type=Path, help="also write the results here")
    parser.add_argument(
        "--memory", type=int, default=0, metavar="N",
        help="also N calls per setting in a fresh process each, its memory (default: none)",
    )  # fmt: skip
    args = parser.parse_args(argv)
    wanted, datasets = chosen_sets(parser, args.data, args.sets)
    calls = crawl_calls(datasets, args.limit)
    per_round = time_calls(calls, args.rounds)
    medians = {s: statistics.median(v) for s, v in per_round.items()}
    print(f"{len(calls)} pages ({', '.join(wanted)}), {args.rounds} rounds; CPU ms per page")
    for setting in SETTINGS:
        rounds = " ".join(f"{v:.3f}" for v in per_round[setting])
        ratio = medians[setting] / medians["python"]
        print(f"  {setting:<7} {medians[setting]:.3f}  x{ratio:.3f}  (rounds: {rounds})")
    result = {"pages": len(calls), "medians_ms": medians, "rounds_ms": per_round}
    if args.memory:
        spawn = multiprocessing.get_context("spawn")  # nothing inherited from this process
        memory = {}
        for setting in ("python", "worker"):
            with spawn.Pool(1) as pool:
                job = (setting, args.data, wanted, args.limit, args.memory)
                memory[setting] = pool.apply(memory_run, job)
            sizes = " ".join(f"{mb:.0f}" for mb in memory[setting])
            print(f"  {setting:<7} resident MB after each 1,000 of {args.memory} calls: {sizes}")
        result["resident_mb"] = memory
    if args.json:
        args.json.write_text(json.dumps(result, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
