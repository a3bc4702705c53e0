"""The ``evaluate`` subcommand of ``scrapy-boilerplate``.

    scrapy-boilerplate evaluate DATASET... [--extractor a,b,...]
        [--compare trafilatura,readability,boilerpy3,justext,resiliparse]
        [--format table|json|markdown] [--limit N] [--per-page N] [--tokens plain|cjk|auto]

``scrapy_boilerplate.cli`` calls :func:`register` with its subparsers.
"""

from __future__ import annotations

import argparse
import datetime
import logging
import platform
import sys
from collections.abc import Sequence
from typing import Any, TextIO

from ..errors import BoilerplateError
from ..registry import DEFAULT_EXTRACTOR
from ..spec import decode_spec
from .datasets import DatasetError, find_datasets
from .evaluate import Progress, evaluate_dataset
from .metrics import BOOTSTRAP_SEED, N_BOOTSTRAP
from .report import FORMATS, render
from .runners import (
    FLOOR,
    OTHER_EXTRACTORS,
    SITE_MEMORY_SUFFIX,
    Runner,
    RunnerUnavailable,
    chain_runner,
    get_runner,
    our_extractors,
)

__all__ = ["build_runners", "quiet_other_loggers", "register", "split_names"]

# loggers of other extractors that warn on ordinary pages
_NOISY_LOGGERS = ("trafilatura", "readability", "htmldate", "courlan", "boilerpy3", "justext")


def split_names(value: str | None, all_names: Sequence[str]) -> list[str]:
    """Comma-separated names; ``all`` stands for ``all_names``; duplicates are dropped."""
    names: list[str] = []
    for part in (value or "").split(","):
        part = part.strip()
        if not part:
            continue
        for name in all_names if part == "all" else [part]:
            if name not in names:
                names.append(name)
    return names


def build_runners(extractors: Sequence[str], compare: Sequence[str]) -> list[Runner]:
    """Runners for our extractors, then the other extractors (unknown names raise
    :class:`~scrapy_boilerplate.evaluation.runners.RunnerUnavailable`)."""
    return [get_runner(name) for name in [*extractors, *compare]]


def quiet_other_loggers(level: int = logging.CRITICAL) -> None:
    """Keep the other extractors' per-page warnings and error logs out of the report
    (their failures are counted in the table)."""
    for name in _NOISY_LOGGERS:
        logging.getLogger(name).setLevel(level)


def _progress(stream: TextIO) -> Progress:
    def report(dataset: str, runner: str, done: int) -> None:
        if done % 100 == 0:
            print(f"  {dataset} / {runner}: {done} pages", file=stream, flush=True)

    return report


def _evaluate_command(args: argparse.Namespace) -> int:
    try:
        datasets = find_datasets(args.datasets)
    except (DatasetError, OSError) as exc:
        print(f"scrapy-boilerplate evaluate: {exc}", file=sys.stderr)
        return 2
    chains: list[Runner] = []
    extractors: list[str] = []
    try:
        if args.extractor.lstrip().startswith("["):  # one chain spec, as JSON
            name = "custom+site_memory" if args.site_memory else "custom"
            chains = [chain_runner(decode_spec(args.extractor), name, args.site_memory)]
        else:
            extractors = split_names(args.extractor, our_extractors())
    except (BoilerplateError, ValueError) as exc:
        print(f"scrapy-boilerplate evaluate: bad chain spec: {exc}", file=sys.stderr)
        return 2
    if args.site_memory:  # our extractors read each set as a crawl does
        extractors = [f"{name}+{SITE_MEMORY_SUFFIX}" for name in extractors]
    compare = split_names(args.compare, [*OTHER_EXTRACTORS, FLOOR])
    try:
        runners = chains + build_runners(extractors, compare)
    except RunnerUnavailable as exc:
        print(f"scrapy-boilerplate evaluate: {exc}", file=sys.stderr)
        return 2
    if not runners:
        print("scrapy-boilerplate evaluate: no extractor given", file=sys.stderr)
        return 2
    quiet_other_loggers()
    progress = _progress(sys.stderr) if args.verbose else None
    results = []
    for dataset in datasets:
        if args.verbose:
            print(f"{dataset.name}: {', '.join(r.name for r in runners)}", file=sys.stderr)
        try:
            results.append(
                evaluate_dataset(
                    dataset,
                    runners,
                    tokens=args.tokens,
                    limit=args.limit,
                    n_bootstrap=args.bootstrap,
                    seed=args.seed,
                    progress=progress,
                )
            )
        except (DatasetError, OSError) as exc:
            print(f"scrapy-boilerplate evaluate: {dataset.name}: {exc}", file=sys.stderr)
            return 1
    meta = {
        "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        "python": platform.python_version(),
        "tokens": args.tokens,
        "limit": args.limit,
        "bootstrap": args.bootstrap,
        "seed": args.seed,
        "versions": {r.name: r.version for r in runners},
    }
    sys.stdout.write(render(results, args.format, args.per_page, meta))
    sys.stdout.write("\n")
    return 0


def _positive_int(value: str) -> int:
    n = int(value)
    if n < 0:
        raise argparse.ArgumentTypeError(f"{value!r} is negative")
    return n


def register(subparsers: Any) -> argparse.ArgumentParser:
    """Add the ``evaluate`` subcommand to ``scrapy-boilerplate``'s subparsers."""
    ev = subparsers.add_parser(
        "evaluate",
        help="score extractors on labelled datasets (token-shingle F1, snippets, speed)",
        description=(
            "Run extractors over labelled datasets (folders with truth.jsonl, or "
            "ground-truth.json + html/; a folder of such folders means all of them) and print "
            "token-shingle precision / recall / F1, accuracy, snippet hits and timings."
        ),
    )
    ev.add_argument("datasets", nargs="+", metavar="DATASET", help="dataset folder(s)")
    ev.add_argument(
        "--extractor",
        "-e",
        default=DEFAULT_EXTRACTOR,
        help="our extractors, comma-separated, or 'all' (every one but lm, seconds per "
        "page: name it), or one chain spec as a JSON list "
        f"(reported as 'custom'; default: {DEFAULT_EXTRACTOR}; known: "
        f"{', '.join(our_extractors())}, lm)",
    )
    ev.add_argument(
        "--compare",
        "-c",
        default="",
        help=f"other extractors to run side by side, comma-separated, or 'all' "
        f"({', '.join(OTHER_EXTRACTORS)}; '{FLOOR}' adds the bare-parse floor)",
    )
    ev.add_argument("--format", "-f", choices=FORMATS, default="table", help="output format")
    ev.add_argument(
        "--limit", type=_positive_int, default=None, help="only the first N pages of each set"
    )
    ev.add_argument(
        "--per-page",
        type=_positive_int,
        default=0,
        metavar="N",
        help="also list the N worst pages of each extractor (id, P, R, F1, ms)",
    )
    ev.add_argument(
        "--tokens",
        choices=("plain", "cjk", "auto"),
        default="auto",
        help="tokenization: plain \\w+, cjk (each Han/kana/Thai character a token), or auto "
        "(cjk for zh/ja/th pages; default)",
    )
    ev.add_argument(
        "--bootstrap",
        type=_positive_int,
        default=N_BOOTSTRAP,
        metavar="N",
        help=f"bootstrap resamples for the std (default {N_BOOTSTRAP}; 0: none)",
    )
    ev.add_argument("--seed", type=int, default=BOOTSTRAP_SEED, help="bootstrap seed (default 0)")
    ev.add_argument(
        "--site-memory",
        action="store_true",
        help="read each set's pages in order as a crawl does, our extractors remembering "
        "what each site's earlier pages left out (BOILERPLATE_SITE_MEMORY); reported as "
        "NAME+site_memory",
    )
    ev.add_argument("--verbose", "-v", action="store_true", help="progress on stderr")
    ev.set_defaults(func=_evaluate_command)
    return ev
