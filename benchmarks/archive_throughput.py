#!/usr/bin/env python
"""Pages per second over a WARC file: our extractor beside trafilatura and resiliparse,
all through the same reader, in one run.

    python -m benchmarks.archive_throughput                  # 5,000 pages, 3 rounds
    python -m benchmarks.archive_throughput --pages 1000 --rounds 1 --out /tmp/x.md

Builds a WARC.gz of ``--pages`` HTML responses from the pages of every set in the data
folder (cycled, each copy at its own URL), then, in each of ``--rounds`` rounds, reads it
through ``scrapy_boilerplate.archives`` (FastWARC) and extracts every page with:

- the reader alone (decoding the body included): the floor;
- our default extractor in this process, and with ``--workers 2`` (the process pool),
  as ``scrapy-boilerplate extract --format jsonl`` runs it (each result serialised);
- trafilatura ``extract(html, include_comments=False)`` and resiliparse
  ``extract_plain_text(html, main_content=True)``, one process each, on the body
  decoded the way we decode it.

Reported: the median over rounds of pages/s, per core for one process, and the ratios.
Memory: the peak resident set of ``scrapy-boilerplate extract`` over a fifth of the file
and over all of it (flat means streaming). Writes a section of ``docs/speed.md``.
Not a test: nothing is asserted.
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path

from scrapy_boilerplate import __version__, get_extractor
from scrapy_boilerplate.archives import ArchivedPage, iter_archive
from scrapy_boilerplate.archives.batch import extract_pages
from scrapy_boilerplate.archives.writing import StoredResponse, write_warc
from scrapy_boilerplate.encoding import decode_html
from scrapy_boilerplate.evaluation import find_datasets
from scrapy_boilerplate.registry import DEFAULT_EXTRACTOR

from .doc_sections import update_section

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_DATA = ROOT.parent / "shared" / "data"
#: the package default (what `scrapy-boilerplate extract` uses with no --extractor)
OURS = DEFAULT_EXTRACTOR


def corpus(data: Path) -> Iterator[StoredResponse]:
    """Every page of every set, as a stored response, cycled forever (copy n at url#n)."""
    datasets = find_datasets([data])
    for copy in itertools.count():
        for dataset in datasets:
            for page in dataset.iter_pages():
                url = page.url or f"http://{dataset.name}.example/{page.id}"
                yield StoredResponse(f"{url}#{copy}" if copy else url, page.html.encode("utf-8"))


def html_pages(path: Path) -> Iterator[str]:
    for item in iter_archive(path):
        if isinstance(item, ArchivedPage):
            yield decode_html(item.body, content_type=item.content_type)[0]


def run_reader(path: Path) -> int:
    return sum(1 for _ in html_pages(path))


def run_ours(path: Path, workers: int) -> int:
    extractor = get_extractor(OURS)
    count = 0
    for result in extract_pages(iter_archive(path), extractor, workers=workers, timeout=10):
        json.dumps(result, ensure_ascii=False)  # what the command writes
        count += 1
    return count


def run_other(path: Path, extract: Callable[[str], object]) -> int:
    count = 0
    for html in html_pages(path):
        extract(html)
        count += 1
    return count


def contenders(path: Path) -> dict[str, tuple[int, Callable[[], int]]]:
    """name -> (processes it uses, a run over the whole file returning the page count)."""
    out: dict[str, tuple[int, Callable[[], int]]] = {
        "reader only (FastWARC + decoding)": (1, lambda: run_reader(path)),
        f"scrapy-boilerplate `{OURS}`, 1 process": (1, lambda: run_ours(path, 1)),
        f"scrapy-boilerplate `{OURS}`, --workers 2": (2, lambda: run_ours(path, 2)),
    }
    try:
        import trafilatura

        out["trafilatura (include_comments=False)"] = (
            1,
            lambda: run_other(path, lambda html: trafilatura.extract(html, include_comments=False)),
        )
    except ImportError:
        print("trafilatura not installed: skipped", file=sys.stderr)
    try:
        from resiliparse.extract.html2text import extract_plain_text

        out["resiliparse (main_content=True)"] = (
            1,
            lambda: run_other(path, lambda html: extract_plain_text(html, main_content=True)),
        )
    except ImportError:
        print("resiliparse not installed: skipped", file=sys.stderr)
    return out


def peak_rss_mb(path: Path) -> float:
    """Peak resident set (MB) of the extract command over ``path``, in a child process."""
    code = (
        "import resource, sys\n"
        "from scrapy_boilerplate.cli import main\n"
        "sys.stdout = open('/dev/null', 'w')\n"
        f"main(['extract', '-f', 'jsonl', '--no-progress', {str(path)!r}])\n"
        "print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, file=sys.stderr)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return int(done.stderr.strip().splitlines()[-1]) / 1024


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", default=os.environ.get("SCRAPY_BOILERPLATE_DATA", DEFAULT_DATA))
    parser.add_argument("--pages", type=int, default=5000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--out", default=str(ROOT / "docs" / "speed.md"))
    args = parser.parse_args(argv)

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "pages.warc.gz"
        small = Path(tmp) / "fifth.warc.gz"
        write_warc(path, itertools.islice(corpus(Path(args.data)), args.pages))
        write_warc(small, itertools.islice(corpus(Path(args.data)), args.pages // 5))
        size_mb = path.stat().st_size / 2**20
        print(f"{args.pages} pages, {size_mb:.0f} MB gzipped", file=sys.stderr)
        runs = contenders(path)
        rates: dict[str, list[float]] = {name: [] for name in runs}
        started = time.perf_counter()
        for round_ in range(args.rounds):
            for name, (_, run) in runs.items():
                t0 = time.perf_counter()
                pages = run()
                seconds = time.perf_counter() - t0
                rates[name].append(pages / seconds)
                print(
                    f"round {round_ + 1}: {name}: {pages} pages, {pages / seconds:.1f}/s",
                    file=sys.stderr,
                )
        rss_small, rss_all = peak_rss_mb(small), peak_rss_mb(path)
        elapsed = time.perf_counter() - started

    median = {name: statistics.median(values) for name, values in rates.items()}
    ours_one = median[f"scrapy-boilerplate `{OURS}`, 1 process"]
    ours_two = median[f"scrapy-boilerplate `{OURS}`, --workers 2"]
    traf = median.get("trafilatura (include_comments=False)")
    lines = [
        "## Archives: pages per second over a WARC file",
        "",
        f"Generated by `python -m benchmarks.archive_throughput --pages {args.pages} "
        f"--rounds {args.rounds}` on {time.strftime('%Y-%m-%d')}: a WARC.gz of "
        f"{args.pages:,} HTML responses ({size_mb:.0f} MB) made from the pages of the ten "
        f"sets, read with FastWARC; CPython {platform.python_version()}, "
        f"{platform.machine()}, {os.cpu_count()} cores (shared), scrapy-boilerplate "
        f"{__version__}; median of {args.rounds} rounds, the contenders interleaved; "
        f"{elapsed / 60:.0f} min in all.",
        "",
        "| contender | processes | pages/s | pages/s per core | vs trafilatura |",
        "|---|---:|---:|---:|---:|",
    ]
    for name, (processes, _) in runs.items():
        ratio = f"{median[name] / traf:.1f}x" if traf else "n/a"
        lines.append(
            f"| {name} | {processes} | {median[name]:.1f} | {median[name] / processes:.1f} "
            f"| {ratio} |"
        )
    lines += [
        "",
        f"- `--workers 2` gives **{ours_two / ours_one:.2f}x** one process on this machine's "
        "two cores (the reading and JSON writing stay in the main process).",
    ]
    if traf:
        lines.append(
            f"- Our default extractor runs **{ours_one / traf:.1f}x** trafilatura's pages/s "
            "per core."
        )
    lines += [
        f"- Peak memory of `scrapy-boilerplate extract` (one process): {rss_small:.0f} MB over "
        f"{args.pages // 5:,} pages, {rss_all:.0f} MB over {args.pages:,}: it streams.",
        "",
        "Rounds (pages/s): "
        + "; ".join(
            f"{name}: {', '.join(f'{r:.0f}' for r in values)}" for name, values in rates.items()
        ),
    ]
    text = "\n".join(lines) + "\n"
    update_section(args.out, "archive-throughput", text)
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
