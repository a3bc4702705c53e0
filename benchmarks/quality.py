"""Quality and speed of every extractor on every labelled set: writes docs/benchmarks.md.

    python -m benchmarks.quality [--limit N] [--out docs/benchmarks.md] [--data DIR]
        [--extractors a,b|all] [--compare x,y|all] [--sets s1,s2] [--resume]

Runs our extractors, the other extractors that are installed (extra ``bench``) and a bare
lxml parse (the floor) over every set in the data folder (default: ``$SCRAPY_BOILERPLATE_DATA``
or ``../shared/data`` next to the checkout), one extractor at a time, in this one process,
and writes a Markdown report with the library versions, the date and the machine.

Per (set, extractor) page results are cached under ``benchmarks/out/quality/`` (``--work``);
with ``--resume`` a finished pair is loaded from there instead of run again (same limit,
tokenization and library version: delete the cache after changing our extractors), so an
interrupted run can be continued. The raw summaries also go to ``benchmarks/out/quality.json``.
"""

from __future__ import annotations

import argparse
import datetime
import importlib.metadata
import json
import math
import os
import platform
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from scrapy_boilerplate.evaluation.cli import quiet_other_loggers, split_names
from scrapy_boilerplate.evaluation.datasets import Dataset, find_datasets
from scrapy_boilerplate.evaluation.evaluate import (
    DatasetResult,
    PageResult,
    RunnerResult,
    evaluate_dataset,
    evaluate_runner,
)
from scrapy_boilerplate.evaluation.metrics import N_BOOTSTRAP
from scrapy_boilerplate.evaluation.report import render_markdown, to_data
from scrapy_boilerplate.evaluation.runners import (
    FLOOR,
    OTHER_EXTRACTORS,
    SITE_MEMORY_SUFFIX,
    Runner,
    get_runner,
    our_extractors,
)
from scrapy_boilerplate.registry import DEFAULT_EXTRACTOR
from scrapy_boilerplate.training.dataset import EVALUATION_ONLY_SETS

from .grouped_cv import run_folder
from .paired_margins import mean_margin, set_margin

REPO = Path(__file__).resolve().parents[1]

DEFAULT_DATA = Path(os.environ.get("SCRAPY_BOILERPLATE_DATA", REPO.parent / "shared" / "data"))
DEFAULT_OUT = REPO / "docs" / "benchmarks.md"
WORK_DIR = REPO / "benchmarks" / "out"  # cache (quality/) and raw summaries (quality.json)

# distributions whose versions the report lists
LIBRARIES = (
    "scrapy-boilerplate-removal",
    "lxml",
    "numpy",
    "trafilatura",
    "readability-lxml",
    "boilerpy3",
    "jusText",
    "resiliparse",
)


def cpu_model() -> str:
    """The CPU's model name (from /proc/cpuinfo where there is one)."""
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as fh:
            for line in fh:
                if line.lower().startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine() or "unknown"


def memory_gb() -> float | None:
    """Total memory in GB (Linux), else None."""
    try:
        with open("/proc/meminfo", encoding="utf-8") as fh:
            for line in fh:
                if line.startswith("MemTotal:"):
                    return int(line.split()[1]) / 1024 / 1024
    except (OSError, ValueError, IndexError):
        pass
    return None


def versions() -> dict[str, str | None]:
    """Installed versions of the libraries in the report."""
    out: dict[str, str | None] = {"python": platform.python_version()}
    for dist in LIBRARIES:
        try:
            out[dist] = importlib.metadata.version(dist)
        except importlib.metadata.PackageNotFoundError:
            out[dist] = None
    return out


class CachedRun:
    """Run one (set, extractor) pair, or load it from the cache with ``resume``."""

    def __init__(self, args: argparse.Namespace) -> None:
        self.args = args
        self.log = sys.stderr
        self.computed = 0  # pairs run now
        self.cached = 0  # pairs loaded from the cache
        self.run_s = 0.0  # wall time of the passes, cached ones included (as recorded)
        self.computed_s = 0.0  # wall time of the passes run now

    def _key(self, runner: Runner) -> dict[str, Any]:
        return {
            "limit": self.args.limit,
            "tokens": self.args.tokens,
            "version": runner.version,
        }

    def __call__(self, dataset: Dataset, runner: Runner) -> RunnerResult:
        path = self.args.work / "quality" / f"{dataset.name}__{runner.name}.json"
        key = self._key(runner)
        if self.args.resume and runner.available and path.exists():
            data = json.loads(path.read_text(encoding="utf-8"))
            if data.get("key") == key:
                result = RunnerResult(runner.name, runner.kind, runner.version)
                result.pages = [PageResult.from_dict(p) for p in data["pages"]]
                self.cached += 1
                self.run_s += data.get("elapsed_s", 0.0)
                print(f"[{dataset.name}] {runner.name}: cached", file=self.log, flush=True)
                return result.finish(self.args.bootstrap)
        t0 = time.perf_counter()
        result = evaluate_runner(
            dataset, runner, self.args.tokens, self.args.limit, self.args.bootstrap
        )
        elapsed = time.perf_counter() - t0
        self.run_s += elapsed
        self.computed_s += elapsed
        if runner.available:
            self.computed += 1
            path.parent.mkdir(parents=True, exist_ok=True)
            tmp = path.with_suffix(".tmp")
            record = {
                "key": key,
                "elapsed_s": elapsed,
                "pages": [p.to_dict() for p in result.pages],
            }
            tmp.write_text(json.dumps(record), encoding="utf-8")
            tmp.replace(path)
        state = "not installed" if not runner.available else f"{len(result.pages)} pages"
        print(
            f"[{dataset.name}] {runner.name}: {state} in {elapsed:.1f} s "
            f"(failures: {result.failures})",
            file=self.log,
            flush=True,
        )
        return result


def wall_time(run: CachedRun) -> str:
    """What the report says of the passes' wall time: as they ran, and, when some came
    from the cache, what this invocation itself ran."""
    said = f"the passes took {run.run_s / 60:.1f} minutes of wall time"
    if not run.cached:
        return said
    total = run.cached + run.computed
    now = (
        "none was run this time"
        if not run.computed
        else f"the {run.computed} run this time took {run.computed_s / 60:.1f}"
    )
    return (
        f"{said} as they ran ({run.cached} of {total} (set, extractor) passes were loaded "
        f"from an earlier run's cache; {now})"
    )


def _f1_cell(r: RunnerResult, ds: DatasetResult) -> str:
    if not r.available:
        return "n/i"
    if ds.text_pages and r.shingles is not None:
        value = r.shingles.f1
    elif r.snippets is not None:
        value = r.snippets.f1
    else:
        return ""
    return "n/a" if math.isnan(value) else f"{value:.3f}"


def _ms_cell(attr: str) -> Any:
    def cell(r: RunnerResult, ds: DatasetResult) -> str:
        if not r.available:
            return "n/i"
        value = getattr(r.timing, attr, math.nan) if r.timing is not None else math.nan
        return "" if math.isnan(value) else f"{value:.1f}"

    return cell


def _matrix(results: list[DatasetResult], cell: Any, floor: bool = True) -> str:
    names: list[str] = []
    for ds in results:
        for r in ds.runners:
            if r.runner not in names and (floor or r.kind != "floor"):
                names.append(r.runner)
    head = ["extractor", *(ds.name for ds in results)]
    lines = [
        "| " + " | ".join(head) + " |",
        "|" + "|".join(["---"] + ["---:"] * len(results)) + "|",
    ]
    for name in names:
        row = [name if name != FLOOR else f"{FLOOR} (parse only)"]
        for ds in results:
            r = next((x for x in ds.runners if x.runner == name), None)
            row.append("" if r is None else cell(r, ds))
        lines.append("| " + " | ".join(row) + " |")
    return "\n".join(lines)


#: the other libraries a user would pick instead of ours (boilerpy3 is boilerpipe itself)
ANCHORS = ("trafilatura_no_comments", "trafilatura", "readability", "resiliparse", "justext")


#: our extractors set beside the best other library: boilerpipe's and the learned ones
#: the default as a crawl reads a set: its pages in order, each site's template remembered
#: (``BOILERPLATE_SITE_MEMORY``); run beside the default whenever the default runs
CRAWL_DEFAULT = f"{DEFAULT_EXTRACTOR}+{SITE_MEMORY_SUFFIX}"
OURS_COMPARED = ("boosted", CRAWL_DEFAULT, "article", "web2text", "context")
#: where ``python -m benchmarks.grouped_cv`` writes the default extractor's figures
#: cross-validated by site on its training sets (under ``--work``), the first that exists:
#: the default as shipped (``--discussion-folds``: its every-type model's folds read the
#: pages that declare a discussion and the pages the article model finds empty), then
#: the article model alone
CROSS_VALIDATED = tuple(
    Path("grouped_cv") / run_folder(DEFAULT_EXTRACTOR, {}, discussions) / "results.json"
    for discussions in (True, False)
)
#: the sets no shipped model trains on (shared/data/README.md): the evidence
UNSEEN_SETS = EVALUATION_ONLY_SETS


def _score(r: RunnerResult, ds: DatasetResult) -> float:
    if not r.available:
        return math.nan
    if ds.text_pages and r.shingles is not None:
        return r.shingles.f1
    return r.snippets.f1 if r.snippets is not None else math.nan


def best_other_table(
    results: list[DatasetResult],
    ours: tuple[str, ...],
    cross_validated: dict[str, float],
    n_bootstrap: int = N_BOOTSTRAP,
) -> str:
    """Per set: the best anchor library and its F1, then each of ``ours`` with its margin
    to that library (positive: ahead), on the sets no model trains on the 95 % interval
    of the default's margin when both are resampled over the same pages
    (``benchmarks.margins``), then the default's
    cross-validated figure where there is one (its training sets); last, the means over
    :data:`UNSEEN_SETS`."""
    head = ["set", "best other library", "F1", *(f"{name} (margin)" for name in ours)]
    head.append(f"{DEFAULT_EXTRACTOR}'s margin, 95 % interval")
    head.append(f"{DEFAULT_EXTRACTOR}, cross-validated by site (margin)")
    lines = [
        "| " + " | ".join(head) + " |",
        "|" + "|".join(["---", "---", "---:"] + ["---:"] * (len(ours) + 2)) + "|",
    ]
    unseen: list[list[float]] = []
    unseen_margins = []
    for ds in results:
        anchors = [
            (_score(r, ds), r.runner, r)
            for r in ds.runners
            if r.runner in ANCHORS and not math.isnan(_score(r, ds))
        ]
        if not anchors:
            continue
        best_f1, best_name, best = max(anchors, key=lambda a: a[0])
        values = [_value(ds, name) for name in ours]
        row = [ds.name, best_name, f"{best_f1:.3f}"] + [_margin(v, best_f1) for v in values]
        default = next((r for r in ds.runners if r.runner == DEFAULT_EXTRACTOR), None)
        # (on a set the models trained on, the default's figure is in-sample: no interval)
        unseen_set = ds.name in UNSEEN_SETS
        paired = (
            set_margin(ds.name, default, [best], n_bootstrap) if default and unseen_set else None
        )
        row.append(_interval(paired.summary()) if paired is not None else "")
        row.append(_margin(cross_validated.get(ds.name, math.nan), best_f1))
        lines.append("| " + " | ".join(row) + " |")
        if unseen_set:
            unseen.append([best_f1, *values])
            unseen_margins.append(paired)
    if len(unseen) == len(UNSEEN_SETS):
        means = [sum(column) / len(column) for column in zip(*unseen, strict=True)]
        row = ["**mean of the six unseen sets**", "best per set", f"{means[0]:.3f}"]
        row += [_margin(m, means[0]) for m in means[1:]]
        complete = all(m is not None for m in unseen_margins)
        row += [_interval(mean_margin(unseen_margins)) if complete else "", ""]
        lines.append("| " + " | ".join(row) + " |")
    return "\n".join(lines)


def _interval(margin: dict[str, Any]) -> str:
    if math.isnan(margin["low"]):
        return ""
    return f"{margin['low']:+.3f} .. {margin['high']:+.3f}"


def read_cross_validated(paths: Sequence[Path]) -> dict[str, float]:
    """Per set, the default's cross-validated F1 from the first of ``paths`` that exists
    (empty if grouped_cv has not run)."""
    path = next((p for p in paths if p.is_file()), None)
    if path is None:
        return {}
    data = json.loads(path.read_text(encoding="utf-8"))
    return {name: float(v["f1"]) for name, v in data.items()}


def _value(ds: DatasetResult, name: str) -> float:
    r = next((x for x in ds.runners if x.runner == name), None)
    return _score(r, ds) if r is not None else math.nan


def _margin(value: float, best: float) -> str:
    return "" if math.isnan(value) else f"{value:.3f} ({value - best:+.3f})"


def write_report(
    results: list[DatasetResult],
    args: argparse.Namespace,
    started: datetime.datetime,
    run: CachedRun,
    load: tuple[tuple[float, ...], tuple[float, ...]],
) -> str:
    """The Markdown of docs/benchmarks.md."""
    vers = versions()
    mem = memory_gb()
    command = "python -m benchmarks.quality" + (f" --limit {args.limit}" if args.limit else "")
    out = [
        "# Benchmarks: quality and speed",
        "",
        f"Generated by `{command}` (do not edit by hand; re-run the command).",
        "",
        f"- Date: {started.strftime('%Y-%m-%d %H:%M UTC')}; {wall_time(run)}.",
        f"- Machine: {cpu_model()}, {os.cpu_count()} cores"
        + (f", {mem:.0f} GB RAM" if mem else "")
        + f", {platform.system()} {platform.release()}; shared with other work "
        f"(load average {load[0][0]:.1f} at the start, {load[1][0]:.1f} at the end), so "
        "timings are indicative: compare extractors within a run, not across runs.",
        "- Versions: " + ", ".join(f"{k} {v or 'not installed'}" for k, v in vers.items()) + ".",
        f"- Pages: {'the first ' + str(args.limit) + ' of each set' if args.limit else 'every page of each set'}"
        f" in `{args.data}` (format: `data/README.md`).",
        "",
        "How it is measured (details: [evaluation.md](evaluation.md)):",
        "",
        "- One process, one extractor at a time, each over the same pages (decoded as UTF-8,",
        "  passed as `str`); the timed call is the extraction itself, parsing included, after",
        "  one untimed warm-up page, both in wall-clock and in CPU time. `lxml (parse only)` is",
        "  a bare `lxml.etree.fromstring(html, HTMLParser())` of the same `str`: the floor",
        "  every lxml-based extractor pays.",
        "- Precision / recall / F1: token shingles (4-token windows) as in the widely used",
        "  article-extraction benchmark; mean over pages, ± the bootstrap standard deviation",
        f"  ({args.bootstrap} resamples over pages, seed 0). Accuracy: pages whose token",
        "  sequence equals the reference.",
        f"- Tokens: `{args.tokens}`"
        + (
            " — Chinese, Japanese and Thai pages (by their `lang`) are scored with every"
            " Han/kana/Thai character as a token, all other pages with plain `\\w+` runs. Each"
            " table repeats which."
            if args.tokens == "auto"
            else "."
        ),
        "- Snippet P / R / F1 (sets with `with`/`without` snippets): micro-averaged hits,",
        "  whitespace collapsed on both sides. `trafilatura-eval` has snippets only;",
        "  `wcxb-dev` has both.",
        "- Other extractors are called as their documentation recommends for article text:",
        "  trafilatura `extract(html)` (defaults) and `extract(html, include_comments=False)`",
        "  (`trafilatura_no_comments`: the article-extraction benchmark's setting, and what",
        "  our extractors return: no readers' comments); readability-lxml `Document(html).summary()`",
        "  then its text (line break after block elements, whitespace normalised); boilerpy3",
        "  `ArticleExtractor().get_content(html)`; jusText with the stoplist of the page's",
        "  language (English if it has none, e.g. for Chinese), non-boilerplate paragraphs;",
        "  resiliparse `extract_plain_text(html, main_content=True)`.",
        "- A failure (exception) on a page is counted and scored as an empty prediction.",
        "  `n/i`: not installed.",
        "",
        "## F1 per set",
        "",
        "Token-shingle F1; for `trafilatura-eval` (snippets only) snippet F1.",
        "",
        _matrix(results, _f1_cell, floor=False),
        "",
        "## Against the best other library",
        "",
        "Per set, the best of trafilatura (both settings), readability-lxml, resiliparse",
        "and jusText, and the margin of boilerpipe's `article` and of our learned extractors",
        "to it (F1 as above). `boosted` (the default), `web2text`, `context` and `lm_fast`",
        "were trained on wcxb-dev, mozilla-readability, zh-cwced-dev and trafilatura-eval:",
        "their figures on those four sets are in-sample, not evidence. The last column is",
        "`boosted` cross-validated by site on those four sets, as shipped (`python -m",
        "benchmarks.grouped_cv --discussion-folds DIR`, DIR the every-type model's folds of",
        "`python -m benchmarks.boosted_page_types --other-weight 0.3`: every page scored by",
        "models that never saw its site; web2text's and the others' in docs/neural.md). The",
        "last row is the mean over the six sets no",
        "model trained on. `lm` is not run here (seconds per page): docs/neural.md. The",
        "interval column (the six unseen sets only) resamples `boosted` and the set's best",
        "other library over the same pages (a paired bootstrap, `python -m",
        "benchmarks.margins`): an interval that holds 0 is a margin the set's page mix could",
        f"turn. `{CRAWL_DEFAULT}` is the default as a crawl reads the set: its pages in",
        "order, what each site's earlier pages left out left out again",
        "(`BOILERPLATE_SITE_MEMORY`; cross-validated on the training sets in docs/neural.md,",
        '"A crawl\'s memory of each site").',
        "",
        best_other_table(
            results,
            OURS_COMPARED,
            read_cross_validated([args.work / p for p in CROSS_VALIDATED]),
            args.bootstrap,
        ),
        "",
        "## Median milliseconds per page",
        "",
        "CPU time of the process during the call (`time.process_time`): on this shared",
        "machine the fairer comparison, as other work slows wall-clock times unevenly.",
        "",
        _matrix(results, _ms_cell("median_cpu_ms")),
        "",
        "Wall clock (`time.perf_counter`), as the per-set tables' `median ms`:",
        "",
        _matrix(results, _ms_cell("median_ms")),
        "",
        "## Per set",
        "",
        render_markdown(results, per_page=args.per_page, level=3),
    ]
    return "\n".join(out).rstrip() + "\n"


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    """Command-line options."""
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--limit", type=int, default=None, help="first N pages of each set")
    p.add_argument("--out", type=Path, default=DEFAULT_OUT, help="Markdown report to write")
    p.add_argument("--data", type=Path, default=DEFAULT_DATA, help="folder of dataset folders")
    p.add_argument("--sets", default="", help="only these sets (comma-separated names)")
    p.add_argument("--extractors", default="all", help="our extractors (default: all)")
    p.add_argument("--compare", default="all", help="other extractors (default: all)")
    p.add_argument("--tokens", choices=("plain", "cjk", "auto"), default="auto")
    p.add_argument("--bootstrap", type=int, default=N_BOOTSTRAP)
    p.add_argument("--per-page", type=int, default=0, help="list the N worst pages too")
    p.add_argument("--resume", action="store_true", help="reuse cached (set, extractor) runs")
    p.add_argument(
        "--work", type=Path, default=WORK_DIR, help="folder for the cache and the raw JSON"
    )
    return p.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark and write the report."""
    args = parse_args(argv)
    datasets = find_datasets([args.data])
    wanted = [s for s in args.sets.split(",") if s]
    if wanted:
        datasets = [d for d in datasets if d.name in wanted]
    ours = split_names(args.extractors, our_extractors())
    if DEFAULT_EXTRACTOR in ours and CRAWL_DEFAULT not in ours:
        ours.insert(ours.index(DEFAULT_EXTRACTOR) + 1, CRAWL_DEFAULT)
    names = [
        *ours,
        *split_names(args.compare, list(OTHER_EXTRACTORS)),
        FLOOR,
    ]
    runners = [get_runner(n) for n in names]
    quiet_other_loggers()
    started = datetime.datetime.now(datetime.timezone.utc)
    load_start = os.getloadavg() if hasattr(os, "getloadavg") else (math.nan,)
    t0 = time.perf_counter()
    run = CachedRun(args)
    results = []
    for ds in datasets:
        print(f"== {ds.name}", file=sys.stderr, flush=True)
        results.append(
            evaluate_dataset(ds, runners, args.tokens, args.limit, args.bootstrap, run=run)
        )
    elapsed = time.perf_counter() - t0
    load_end = os.getloadavg() if hasattr(os, "getloadavg") else (math.nan,)
    report = write_report(results, args, started, run, (load_start, load_end))
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(report, encoding="utf-8")
    raw_json = args.work / "quality.json"
    raw_json.parent.mkdir(parents=True, exist_ok=True)
    raw_json.write_text(
        json.dumps(
            {
                "meta": {
                    "date": started.isoformat(timespec="seconds"),
                    "elapsed_s": elapsed,
                    "passes_s": run.run_s,
                    "cached_passes": run.cached,
                    "limit": args.limit,
                    "tokens": args.tokens,
                    "versions": versions(),
                    "cpu": cpu_model(),
                    "cores": os.cpu_count(),
                },
                "datasets": to_data(results),
            },
            indent=2,
            ensure_ascii=False,
        ),
        encoding="utf-8",
    )
    print(f"wrote {args.out} ({elapsed / 60:.1f} min)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
