#!/usr/bin/env python
"""How long the next page's parse takes after an extraction: the same lxml parse of the
same pages, after nothing, after each extractor's whole extraction of the page before, and
after memory swept through.

    python -m benchmarks.parse_after                           # news pages, 3 rounds
    python -m benchmarks.parse_after --sweep-mb 4,32 --rounds 5
    python -m benchmarks.parse_after --parts                   # which part of the default
    LD_PRELOAD=/usr/lib/x86_64-linux-gnu/libjemalloc.so.2 python -m benchmarks.parse_after

Why: in ``benchmarks.extract_stages`` the default's parse is slower than ``article``'s on
the same pages, although the parse is the same code. This isolates it. For each page in
turn the mode's work is done on that page (nothing; ``Extractor.extract``; a write to
every cache line of N MB), then a small fixed page is parsed (timed apart: the
warm-up), then the next page's tree is built (``parse.build_tree``: the markup limits,
NekoHTML's rewrites, lxml's parse), timed. So:

- the warm-up's extra time over ``nothing`` is what the processor's state costs a parse
  that touches little data (mostly its code: instruction caches, branch predictors);
- the next tree's extra time after the warm-up is what is left: the page's data, the
  allocator's memory, the caches the warm-up does not refill;
- a sweep of N MB shows what evicting that much data alone costs the next parse;
- with ``--parts``, the default's work in growing parts (its parse, then its labeler's
  columns, its trees' view of the page, the whole labeler, the whole chain) shows which
  part leaves the caches as they are after the whole extraction.

Run it again under another allocator (``LD_PRELOAD``, as above; Debian's libjemalloc2 or
libtcmalloc-minimal4) to see whether glibc's malloc is the cause. The modes alternate
round by round; a number is the median over rounds of the mean wall ms per page. Not a
test: nothing is asserted. Results go to stdout (and ``--json FILE``).
"""

from __future__ import annotations

import json
import statistics
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from scrapy_boilerplate.extraction import Extractor, get_extractor
from scrapy_boilerplate.neural.boosted import BoostedLabeler
from scrapy_boilerplate.neural.boosted_features import boosted_features
from scrapy_boilerplate.parse import build_tree
from scrapy_boilerplate.registry import DEFAULT_EXTRACTOR

from .extract_stages import parsed_by, top_level_filters
from .speed import turned
from .worker_collector import chosen_sets, news_pages_parser

#: the warm-up: a small page that runs the parse's code on little data
WARM_UP_PAGE = (
    "<html><head><title>A title</title></head><body><div class='story'><h1>Head</h1>"
    "<p>Some <b>text</b> with a <a href='/x'>link</a>.</p><ul><li>one</li></ul></div>"
    "</body></html>"
)
_CACHE_LINE = 64


class Sweep:
    """Work that writes one byte of every cache line of ``megabytes`` MB (the same
    buffer each time, ``buffer``), evicting that much of the processor's data caches.
    A numpy fill: it allocates nothing (a strided copy between Python buffers allocates a
    temporary, and under glibc the first allocation of 1 KB or more after a tree was
    freed consolidates the small chunks that tree's free left: that cost would move
    here)."""

    def __init__(self, megabytes: int) -> None:
        self.buffer = np.zeros(megabytes * 1024 * 1024, dtype=np.uint8)
        self._lines = self.buffer[::_CACHE_LINE]
        self._value = 0

    def __call__(self, page: Any) -> None:
        self._value = self._value % 255 + 1  # (another value each time: a real write)
        self._lines.fill(self._value)


def modes(
    extractors: list[str], sweeps: list[int], parts: bool = False
) -> dict[str, Callable[[Any], None] | None]:
    """The work done on a page before the next page's parse, by name. ``parts``: also the
    default's work in growing parts (its parse; its labeler's columns; its trees' view of
    the page; the whole labeler; the whole chain), each on a parse of its own."""
    work: dict[str, Callable[[Any], None] | None] = {"nothing": None}
    for name in extractors:
        extractor = get_extractor(name)
        work[name] = lambda page, extractor=extractor: extractor.extract(page.html, page.url)
    if parts:
        work.update(default_parts(get_extractor(DEFAULT_EXTRACTOR)))
    for megabytes in sweeps:
        work[f"sweep {megabytes} MB"] = Sweep(megabytes)
    return work


def default_parts(extractor: Extractor) -> dict[str, Callable[[Any], None]]:
    """The default's work on a page in growing parts (see :func:`modes`)."""
    labeler = next(f for _, f in top_level_filters(extractor) if isinstance(f, BoostedLabeler))

    def parsed(page: Any) -> Any:
        return parsed_by(extractor, page)

    return {
        "its parse": parsed,
        "+ columns": lambda page: boosted_features(parsed(page)),
        "+ trees": lambda page: labeler.scored(parsed(page)),
        "+ labeler": lambda page: labeler(parsed(page)),
        "+ chain": lambda page: extractor.chain(parsed(page)),
    }


def one_pass(pages: list[Any], work: Callable[[Any], None] | None) -> tuple[float, float]:
    """The mean wall ms of the warm-up parse and of the next page's tree, over the pages
    (each after ``work`` on the page before)."""
    clock = time.perf_counter
    warm_up = tree = 0.0
    for page, following in zip(pages, pages[1:], strict=False):  # (each but the last)
        if work is not None:
            work(page)
        t0 = clock()
        build_tree(WARM_UP_PAGE)
        t1 = clock()
        build_tree(following.html)
        t2 = clock()
        warm_up += t1 - t0
        tree += t2 - t1
    count = max(1, len(pages) - 1)
    return warm_up / count * 1000, tree / count * 1000


def time_modes(
    pages: list[Any], work: dict[str, Callable[[Any], None] | None], rounds: int
) -> dict[str, dict[str, list[float]]]:
    """Per mode, the warm-up's and the next tree's mean ms of each round (the modes'
    order turns from round to round; each mode's work is done on a few pages first, so
    that models load and caches fill before the rounds)."""
    for do in work.values():
        if do is not None:
            for page in pages[:10]:
                do(page)
    per_round: dict[str, dict[str, list[float]]] = {
        name: {"warm-up": [], "next tree": []} for name in work
    }
    names = list(work)
    for round_ in range(rounds):
        for name in turned(names, round_):
            warm_up, tree = one_pass(pages, work[name])
            per_round[name]["warm-up"].append(warm_up)
            per_round[name]["next tree"].append(tree)
    return per_round


def table(per_round: dict[str, dict[str, list[float]]]) -> tuple[list[str], dict[str, dict]]:
    """The printed lines and the medians, per mode: the warm-up, the next tree, both, and
    both against ``nothing``."""
    medians = {
        name: {part: statistics.median(values) for part, values in parts.items()}
        for name, parts in per_round.items()
    }
    base = medians["nothing"]["warm-up"] + medians["nothing"]["next tree"]
    lines = [f"{'after':<20} {'warm-up':>8} {'next tree':>10} {'both':>8} {'vs nothing':>11}"]
    for name, median in medians.items():
        both = median["warm-up"] + median["next tree"]
        lines.append(
            f"{name:<20} {median['warm-up']:8.3f} {median['next tree']:10.3f} {both:8.3f}"
            f" {both - base:+11.3f}"
        )
    return lines, medians


def main(argv: list[str] | None = None) -> int:
    parser = news_pages_parser(__doc__)
    parser.add_argument("--extractors", default="boosted,article", help="comma-separated")
    parser.add_argument("--sweep-mb", default="4,32", help="sizes of the memory sweeps, MB")
    parser.add_argument(
        "--parts", action="store_true",
        help="also the default's work in growing parts: its parse, columns, trees, labeler, chain",
    )  # fmt: skip
    parser.add_argument("--limit", type=int, default=300, help="first N pages of each set")
    parser.add_argument("--rounds", type=int, default=3, help="passes per mode")
    parser.add_argument("--json", type=Path, help="also write the results here")
    args = parser.parse_args(argv)
    wanted, datasets = chosen_sets(parser, args.data, args.sets)
    sweeps = [int(mb) for mb in args.sweep_mb.split(",") if mb]
    if any(mb <= 0 for mb in sweeps):
        parser.error("--sweep-mb takes sizes of at least 1 MB")
    pages = [page for dataset in datasets for page in dataset.iter_pages(limit=args.limit)]
    if len(pages) < 2:
        parser.error("the sets hold fewer than two pages: no page follows another")
    work = modes([name for name in args.extractors.split(",") if name], sweeps, args.parts)
    per_round = time_modes(pages, work, args.rounds)
    print(f"{len(pages)} pages ({', '.join(wanted)}), {args.rounds} rounds; wall ms per page")
    lines, medians = table(per_round)
    print("\n".join(lines))
    if args.json:
        result = {"pages": len(pages), "medians_ms": medians, "rounds_ms": per_round}
        args.json.write_text(json.dumps(result, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
