#!/usr/bin/env python
"""Where an extractor's time goes on a page: the parse, each filter of its chain, the
learned labeler's features, trees and decoding, the rendering.

    python -m benchmarks.extract_stages                       # news pages, boosted and article
    python -m benchmarks.extract_stages --sets wcxb-dev --limit 300 --rounds 3
    python -m benchmarks.extract_stages --collector worker   # as a crawl's worker runs

Each round reads every page with each extractor (their order turns from round to round,
so a busy phase of the machine hits them alike) in three passes:

- the whole extraction, ``Extractor.extract`` as a crawl's worker calls it (without the
  crawl's memory of each site), with the parse / filters / rendering split it reports in
  ``Extraction.timings``;
- the parse's first step alone, ``parse.build_tree`` (the markup limits, NekoHTML's
  rewrites, lxml's parse): the rest of the parse is the blocks (segmentation, the text
  no browser shows, the title);
- the chain's top-level filters one at a time on a page parsed again (a filter that
  appears twice is counted twice), and for the learned labeler (``BoostedLabeler``) its
  parts on a third parse of the page: its columns (``boosted_features``), the trees'
  view of the page (``scored``: the columns again, then onnxruntime) less the columns,
  and the rest of the labeler (the runs, the short blocks, the footers).

``--collector worker`` sets Python's garbage collector as a crawl's worker process does
(``prepare_worker``: what the process holds frozen, the youngest generation collected
less often) for the rounds. The parts are measured apart from the whole, so they add up
to it only roughly (a part read right after another finds the processor's caches warm):
the table gives both. A number is the median over rounds of the mean wall ms per page
(means, not medians, so that the parts add up). Not a test: nothing is asserted.
Results go to stdout (and ``--json FILE``).
"""

from __future__ import annotations

import json
import statistics
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

from scrapy_boilerplate.extraction import Extractor, get_extractor
from scrapy_boilerplate.filters.base import Chain
from scrapy_boilerplate.neural.boosted import BoostedLabeler
from scrapy_boilerplate.neural.boosted_features import boosted_features
from scrapy_boilerplate.parse import build_tree, parse_html

from .speed import turned
from .worker_collector import chosen_sets, news_pages_parser, set_collector

#: the labeler's parts, in the order of the table
LABELER_PARTS = ("features", "trees", "decoding")
#: pages read by each extractor before the rounds: the models a page loads on first use
#: (the every-type model on a page that declares a discussion) and the caches
WARM_UP_PAGES = 20


def top_level_filters(extractor: Extractor) -> list[tuple[str, Any]]:
    """The filters an extractor's chain runs in turn, each with a name for the table (the
    second of two filters of one name gets " (2)")."""
    chain = extractor.chain
    filters = list(chain.filters) if isinstance(chain, Chain) else [chain]
    named: list[tuple[str, Any]] = []
    seen: dict[str, int] = defaultdict(int)
    for f in filters:
        name = getattr(f, "name", "") or type(f).__name__
        seen[name] += 1
        named.append((name if seen[name] == 1 else f"{name} ({seen[name]})", f))
    return named


def parsed_by(extractor: Extractor, page: Any) -> Any:
    """The page parsed as ``extractor.extract`` parses it."""
    return parse_html(
        page.html, page.url, cjk=extractor.cjk, plugin_fallbacks=not extractor.java_text
    )


def labeler_parts(labeler: BoostedLabeler, doc: Any) -> tuple[float, float]:
    """The ms of a labeler's columns of a page and of its trees' whole view of it
    (``scored``: the columns again, then the trees); ``doc`` is left as it was."""
    clock = time.perf_counter
    t0 = clock()
    boosted_features(doc)
    t1 = clock()
    labeler.scored(doc)
    return (t1 - t0) * 1000, (clock() - t1) * 1000


def page_stages(extractor: Extractor, page: Any) -> dict[str, float]:
    """One page's wall ms per stage (see the module docstring)."""
    clock = time.perf_counter
    ms: dict[str, float] = {}
    t0 = clock()
    result = extractor.extract(page.html, page.url)
    ms["whole"] = (clock() - t0) * 1000
    ms["parse"] = result.timings["parse_ms"]
    ms["filters"] = result.timings.get("filter_ms", 0.0)
    ms["render"] = result.timings.get("render_ms", 0.0)
    t0 = clock()
    build_tree(page.html)
    ms["parse: tree"] = (clock() - t0) * 1000
    ms["parse: blocks and the rest"] = ms["parse"] - ms["parse: tree"]
    doc = parsed_by(extractor, page)
    parts = None  # the first labeler's (columns, trees' view) ms, on a parse of its own
    for name, f in top_level_filters(extractor):
        first_labeler = parts is None and isinstance(f, BoostedLabeler) and bool(doc.blocks)
        if first_labeler:
            parts = labeler_parts(f, parsed_by(extractor, page))
        t0 = clock()
        f(doc)
        taken = ms[f"filter: {name}"] = (clock() - t0) * 1000
        if first_labeler:
            features, scored = parts
            ms["labeler: features"] = features
            ms["labeler: trees"] = max(0.0, scored - features)
            ms["labeler: decoding"] = max(0.0, taken - scored)
    return ms


def time_stages(
    pages: list[Any], extractors: dict[str, Extractor], rounds: int
) -> dict[str, dict[str, list[float]]]:
    """Per extractor and stage, the mean ms per page of each round (a stage some page
    lacks, such as the labeler's parts on a page without blocks, counts 0 there)."""
    for extractor in extractors.values():
        for page in pages[:WARM_UP_PAGES]:  # lazy model loads are not a page's cost
            page_stages(extractor, page)
    per_round: dict[str, dict[str, list[float]]] = {n: defaultdict(list) for n in extractors}
    names = list(extractors)
    for round_ in range(rounds):
        for name in turned(names, round_):
            totals: dict[str, float] = defaultdict(float)
            for page in pages:
                for stage, ms in page_stages(extractors[name], page).items():
                    totals[stage] += ms
            for stage, total in totals.items():
                per_round[name][stage].append(total / len(pages))
    return {name: dict(stages) for name, stages in per_round.items()}


def table(per_round: dict[str, dict[str, list[float]]]) -> tuple[list[str], dict[str, dict]]:
    """The printed lines and the medians over rounds, per extractor and stage."""
    lines: list[str] = []
    medians: dict[str, dict[str, float]] = {}
    for name, stages in per_round.items():
        median = {stage: statistics.median(values) for stage, values in stages.items()}
        medians[name] = median
        filters = [s for s in median if s.startswith("filter: ")]
        parts = sum(median[s] for s in filters)
        lines.append(f"{name}: {median['whole']:.3f} ms a page")
        rows = [
            ("parse", median["parse"]),
            ("  tree (limits, NekoHTML's rewrites, lxml)", median["parse: tree"]),
            ("  blocks and the rest", median["parse: blocks and the rest"]),
            (f"filters (apart: {parts:.3f})", median["filters"]),
        ]
        for stage in filters:
            rows.append((f"  {stage[len('filter: ') :]}", median[stage]))
            if stage == filters[0] and "labeler: features" in median:
                rows += [(f"    {p}", median[f"labeler: {p}"]) for p in LABELER_PARTS]
        rows.append(("render", median["render"]))
        rows.append(("the rest of extract()", median["whole"] - median["parse"]
                     - median["filters"] - median["render"]))  # fmt: skip
        lines += [f"  {label:<44} {ms:7.3f}" for label, ms in rows]
    return lines, medians


def main(argv: list[str] | None = None) -> int:
    parser = news_pages_parser(__doc__)
    parser.add_argument("--extractors", default="boosted,article", help="comma-separated")
    parser.add_argument("--limit", type=int, default=500, help="first N pages of each set")
    parser.add_argument("--rounds", type=int, default=3, help="passes per extractor")
    parser.add_argument("--json", type=Path, help="also write the results here")
    parser.add_argument(
        "--collector", choices=("python", "worker"), default="python",
        help="Python's garbage collector as it comes, or as a crawl's worker sets it",
    )  # fmt: skip
    args = parser.parse_args(argv)
    wanted, datasets = chosen_sets(parser, args.data, args.sets)
    extractors = {name: get_extractor(name) for name in args.extractors.split(",") if name}
    pages = [page for dataset in datasets for page in dataset.iter_pages(limit=args.limit)]
    set_collector(args.collector)
    try:
        per_round = time_stages(pages, extractors, args.rounds)
    finally:
        set_collector("python")
    print(
        f"{len(pages)} pages ({', '.join(wanted)}), {args.rounds} rounds, the {args.collector} "
        "collector; wall ms per page"
    )
    lines, medians = table(per_round)
    print("\n".join(lines))
    if args.json:
        result = {
            "pages": len(pages),
            "collector": args.collector,
            "medians_ms": medians,
            "rounds_ms": per_round,
        }
        args.json.write_text(json.dumps(result, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
