"""Density family: parameter sweeps and filter timings on whole datasets.

Each page is parsed once; every configuration then runs on its own copy of the parsed
document, so a sweep of N settings costs one parse per page, not N. Scores use the
project's metric (``scrapy_boilerplate.evaluation.metrics``: token shingles, CJK-aware
tokens for zh/ja/th pages, precision and recall averaged over pages, F1 of the averages).
Times are CPU milliseconds of the filter alone (the parse is shared, so it is reported
once, apart). For the end-to-end comparison with other extractors use the ``evaluate``
command; this script is for choosing parameters and for the filters' own cost.

    python -m benchmarks.density ../shared/data/wcxb-dev ../shared/data/zh-cwced-dev \\
        -c cetd -c cetd_tpc -c 'cetd_tpc:{"tpr_lambda": 0.3}' -c cepr [--limit N]

A configuration is an extractor or filter name, optionally followed by ``:`` and JSON
parameters. Without ``-c``: the five density extractors with their defaults.

    python -m benchmarks.density --stress 50     # a 50 MB page and a 100,000-deep DOM
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from typing import Any

from scrapy_boilerplate.evaluation import find_datasets
from scrapy_boilerplate.evaluation.metrics import (
    score_page,
    summarize,
    tokens_for_lang,
)
from scrapy_boilerplate.parse import parse_html
from scrapy_boilerplate.render import render_text
from scrapy_boilerplate.spec import build_chain

DEFAULT_CONFIGS = ["cetd", "cetd_tpc", "cepr", "cetr", "bte"]


def parse_config(text: str) -> tuple[str, Any]:
    """``name`` or ``name:{json params}`` -> (label, chain spec)."""
    name, sep, params = text.partition(":")
    if not sep:
        return text, name
    return text, [{name: json.loads(params)}]


def run(datasets: list[str], configs: list[str], limit: int | None, tokens: str) -> list[dict]:
    built = [(label, build_chain(spec)) for label, spec in map(parse_config, configs)]
    rows = []
    for dataset in find_datasets(datasets):
        scores: dict[str, list] = {label: [] for label, _ in built}
        times: dict[str, list[float]] = {label: [] for label, _ in built}
        parse_ms: list[float] = []
        for page in dataset.iter_pages(limit):
            if page.main_text is None:
                continue
            t0 = time.process_time()
            # (as the extractors of the shown text read a page: plugin fallbacks read)
            doc = parse_html(page.html, page.url, plugin_fallbacks=True)
            parse_ms.append((time.process_time() - t0) * 1000)
            mode = tokens_for_lang(tokens, page.lang)
            for label, chain in built:
                copy = doc.copy()
                t0 = time.process_time()
                chain(copy)
                times[label].append((time.process_time() - t0) * 1000)
                scores[label].append(score_page(page.main_text, render_text(copy), mode))
        for label, _ in built:
            s = summarize(scores[label], n_bootstrap=0)
            rows.append(
                {
                    "dataset": dataset.name,
                    "config": label,
                    "pages": s.pages,
                    "precision": s.precision,
                    "recall": s.recall,
                    "f1": s.f1,
                    "filter_ms_median": statistics.median(times[label]) if times[label] else 0,
                    "parse_ms_median": statistics.median(parse_ms) if parse_ms else 0,
                }
            )
    return rows


def stress(configs: list[str], megabytes: int = 50) -> None:
    """Time parse and each filter on a page of ``megabytes`` MB (paragraphs and link
    lists) and on a DOM nested 100,000 deep (cut by libxml2 at 2,048 levels)."""
    para = "<p>" + " ".join(["word"] * 120) + " end.</p>\n"
    nav = "<ul>" + "".join(f'<li><a href="/{i}">Link {i}</a></li>' for i in range(20)) + "</ul>\n"
    unit = nav + "<div>" + para * 10 + "</div>\n"
    big = "<html><body>" + unit * (megabytes * 1_000_000 // len(unit)) + "</body></html>"
    deep = "<html><body><p>start</p>" + "<div>" * 100_000 + "deep" + "</div>" * 100_000
    deep += "</body></html>"
    for label, html in ((f"{len(big) / 1e6:.0f} MB page", big), ("100,000-deep DOM", deep)):
        t0 = time.perf_counter()
        doc = parse_html(html)
        parse_s = time.perf_counter() - t0
        nodes = sum(1 for _ in doc.root.iter()) if doc.root is not None else 0
        print(
            f"\n== {label}: {nodes:,} nodes, {len(doc.blocks):,} blocks; parse {parse_s:.2f} s =="
        )
        for config, spec in map(parse_config, configs):
            chain = build_chain(spec)
            copy = doc.copy()
            t0 = time.perf_counter()
            chain(copy)
            elapsed = time.perf_counter() - t0
            kept = sum(b.is_content for b in copy.blocks)
            print(f"{config:<12} {elapsed:6.2f} s  ({kept:,} content blocks)")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("datasets", nargs="*")
    parser.add_argument(
        "--stress", type=int, metavar="MB", help="time a page of MB megabytes and a deep DOM"
    )
    parser.add_argument("-c", "--config", action="append", dest="configs")
    parser.add_argument("--limit", type=int, default=None)
    parser.add_argument("--tokens", default="auto", choices=("plain", "cjk", "auto"))
    parser.add_argument("--json", action="store_true", help="print JSON rows")
    args = parser.parse_args(argv)
    if args.stress:
        stress(args.configs or DEFAULT_CONFIGS, args.stress)
        return 0
    rows = run(args.datasets, args.configs or DEFAULT_CONFIGS, args.limit, args.tokens)
    if args.json:
        print(json.dumps(rows, indent=1))
        return 0
    width = max(len(r["config"]) for r in rows) if rows else 10
    current = None
    for r in rows:
        if r["dataset"] != current:
            current = r["dataset"]
            print(
                f"\n== {current} ({r['pages']} pages; parse {r['parse_ms_median']:.2f} ms median CPU) =="
            )
            print(f"{'config':<{width}}  precision  recall     F1  filter ms (median CPU)")
        print(
            f"{r['config']:<{width}}  {r['precision']:9.3f}  {r['recall']:6.3f}  {r['f1']:5.3f}"
            f"  {r['filter_ms_median']:8.2f}"
        )
    if len(rows) > 1:
        print("\n== mean F1 over the sets ==")
        by_config: dict[str, list[float]] = {}
        for r in rows:
            by_config.setdefault(r["config"], []).append(r["f1"])
        for label, values in by_config.items():
            print(f"{label:<{width}}  {statistics.fmean(values):.3f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
