"""Speed and memory of our default extractor and our ``article`` chain beside boilerpy3
and bare lxml parsing.

    python -m benchmarks.speed [--sets l3s-gn1,dragnet-test,wcxb-dev] [--limit 400] [--out docs/speed.md]

Every page is run through each contender in turn (the order rotates from page to page), so
all of them see the same machine load; times are CPU time of this process
(``time.process_time``), which other processes on a shared machine disturb less than wall
time. Input is the decoded ``str``, as Scrapy hands it over (``response.text``); lxml's time
is ``etree.fromstring`` of the same text (the floor any lxml-based extractor pays).

``article`` is boilerpipe's ArticleExtractor, so boilerpy3 (its Python port) is the fair
comparison for it; the default extractor is timed beside them on the same pages.

Memory: the default extractor runs over every page again, several passes (5,000 pages in
all), and the resident set size is sampled as it goes: it should stay flat.
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import gzip
import io
import json
import os
import platform
import statistics
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import TypeVar

from lxml import etree

from scrapy_boilerplate import __version__, get_extractor
from scrapy_boilerplate.registry import DEFAULT_EXTRACTOR

from .doc_sections import update_section

ROOT = Path(__file__).resolve().parent.parent
T = TypeVar("T")
DEFAULT = f"scrapy-boilerplate {DEFAULT_EXTRACTOR} (default)"
ARTICLE = "scrapy-boilerplate article"


def load(data: Path, sets: list[str], limit: int) -> list[str]:
    pages = []
    for name in sets:
        with open(data / name / "truth.jsonl", encoding="utf-8") as f:
            records = [json.loads(line) for line in f][:limit]
        for rec in records:
            path = data / name / rec["page_file"]
            raw = path.read_bytes()
            if path.name.endswith(".gz"):
                raw = gzip.decompress(raw)
            pages.append(raw.decode("utf-8", errors="replace"))
    return pages


def turned(names: Sequence[T], turn: int) -> list[T]:
    """``names`` from position ``turn`` (modulo their number) on, then the ones before it:
    the order of the contenders for round (or page) ``turn``, which turns so that a busy
    phase of the machine hits each of them alike and none always runs first."""
    turn %= len(names)
    return [*names[turn:], *names[:turn]]


def rss_mb() -> float:
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20


def contenders() -> dict:
    parser = etree.HTMLParser(encoding="utf-8", huge_tree=True)
    out = {
        "lxml parse (floor)": lambda html: etree.fromstring(html.encode("utf-8"), parser),
        DEFAULT: get_extractor(DEFAULT_EXTRACTOR).extract,
        ARTICLE: get_extractor("article").extract,
    }
    try:
        from boilerpy3 import extractors

        bp = extractors.ArticleExtractor(raise_on_failure=False)
        out["boilerpy3 ArticleExtractor"] = bp.get_content
    except ImportError:  # pragma: no cover - extra "bench" not installed
        print(
            "boilerpy3 not installed (pip install 'scrapy-boilerplate-removal[bench]')",
            file=sys.stderr,
        )
    return out


def time_all(pages: list[str]) -> dict[str, list[float]]:
    runners = contenders()
    names = list(runners)
    times: dict[str, list[float]] = {n: [] for n in names}
    sink = io.StringIO()
    for i, html in enumerate(pages):
        for name in turned(names, i):
            with contextlib.redirect_stdout(sink), contextlib.redirect_stderr(sink):
                t0 = time.process_time()
                runners[name](html)
                t1 = time.process_time()
            times[name].append((t1 - t0) * 1000)
        sink.seek(0)
        sink.truncate()
    return times


def memory_run(pages: list[str], min_pages: int = 5000) -> list[tuple[int, float]]:
    ours = get_extractor(DEFAULT_EXTRACTOR)
    samples = []
    done = 0
    gc.collect()
    samples.append((0, rss_mb()))
    while done < min_pages:
        for html in pages:
            ours.extract(html)
            done += 1
            if done % 500 == 0:
                samples.append((done, rss_mb()))
    return samples


def p95(values: list[float]) -> float:
    return statistics.quantiles(values, n=20)[18] if len(values) > 1 else values[0]


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", default=str(ROOT.parent / "shared" / "data"))
    parser.add_argument("--sets", default="l3s-gn1,dragnet-test,wcxb-dev")
    parser.add_argument("--limit", type=int, default=400, help="pages per set")
    parser.add_argument("--out", default=str(ROOT / "docs" / "speed.md"))
    args = parser.parse_args(argv)
    sets = args.sets.split(",")
    pages = load(Path(args.data), sets, args.limit)
    started = time.time()
    times = time_all(pages)
    memory = memory_run(pages)
    floor = statistics.median(times["lxml parse (floor)"])
    ours = statistics.median(times[ARTICLE])
    default = statistics.median(times[DEFAULT])
    lines = [
        "# Speed and memory",
        "",
        f"Generated by `python -m benchmarks.speed --sets {args.sets} --limit {args.limit}` on "
        f"{time.strftime('%Y-%m-%d')}: {len(pages)} pages ({', '.join(sets)}), "
        f"{platform.python_implementation()} {platform.python_version()}, "
        f"{platform.machine()}, {os.cpu_count()} cores (shared), "
        f"scrapy-boilerplate {__version__}, lxml {etree.__version__}. CPU milliseconds per "
        f"page; each page through every contender in turn; {time.time() - started:.0f} s.",
        "",
        "| contender | median ms | p95 ms | mean ms | pages/s | median vs `article` |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    for name, values in times.items():
        median = statistics.median(values)
        lines.append(
            f"| {name} | {median:.2f} | {p95(values):.2f} | {statistics.mean(values):.2f} | "
            f"{1000 / statistics.mean(values):.0f} | {median / ours:.2f}x |"
        )
    if "boilerpy3 ArticleExtractor" in times:
        bp = statistics.median(times["boilerpy3 ArticleExtractor"])
        lines += [
            "",
            f"Our `article` is **{bp / ours:.1f}x** faster than boilerpy3 (medians); "
            f"lxml parsing alone takes {floor / ours:.0%} of its time.",
        ]
    lines += [
        "",
        f"Our default, `{DEFAULT_EXTRACTOR}`, takes {default / ours:.2f}x the time of `article` "
        f"and {default / floor:.2f}x lxml's parse (medians).",
    ]
    lines += [
        "",
        f"Memory (resident set, MB) while `{DEFAULT_EXTRACTOR}` runs {memory[-1][0]:,} pages "
        "(the pages above, again and again):",
        "",
        "| pages done | " + " | ".join(str(n) for n, _ in memory) + " |",
        "|---|" + "---:|" * len(memory),
        "| RSS MB | " + " | ".join(f"{mb:.0f}" for _, mb in memory) + " |",
        "",
        f"Growth from the first {memory[1][0]} pages to the end: "
        f"{memory[-1][1] - memory[1][1]:+.1f} MB.",
    ]
    text = "\n".join(lines) + "\n"
    update_section(args.out, "speed", text)  # other benchmarks write other sections
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
