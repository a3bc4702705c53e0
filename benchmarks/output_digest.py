#!/usr/bin/env python
"""One digest per extractor of everything it returns over the data sets: the check that a
refactoring changed no output.

    python -m benchmarks.output_digest --out benchmarks/out/digest-before.json
    ... refactor ...
    python -m benchmarks.output_digest --compare benchmarks/out/digest-before.json

Every page of every set goes through every named extractor (``scrapy_boilerplate.EXTRACTORS``,
or ``--extractors a,b``); the text, the title, the reason and each block's content flag
are hashed, per page and per (set, extractor). ``--compare`` names the pages whose output
differs from a saved run and exits 1 if any does. Uses only the public API, so a run before
and after a change of the package's layout compare directly. Not a test: nothing is timed.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from scrapy_boilerplate import EXTRACTORS, get_extractor
from scrapy_boilerplate.evaluation import find_datasets

DEFAULT_DATA = Path(__file__).resolve().parents[2] / "shared" / "data"


def page_digest(name: str, html: str) -> str:
    """The digest of one extractor's whole output on one page."""
    result = get_extractor(name).extract(html)
    flags = "".join("1" if block.is_content else "0" for block in result.blocks)
    payload = json.dumps([result.text, result.title, result.reason, flags], ensure_ascii=False)
    return hashlib.sha1(payload.encode("utf-8")).hexdigest()[:16]


def digest_set(args: tuple[str, str, list[str], int | None]) -> dict[str, dict[str, str]]:
    """``{extractor: {page id: digest}}`` for one set."""
    data, set_name, names, limit = args
    (dataset,) = [d for d in find_datasets([data]) if d.name == set_name]
    out: dict[str, dict[str, str]] = {name: {} for name in names}
    for index, page in enumerate(dataset):
        if limit is not None and index >= limit:
            break
        html = page.html
        for name in names:
            out[name][page.id] = page_digest(name, html)
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", default=str(DEFAULT_DATA), help="folder of data sets")
    parser.add_argument("--sets", default=None, help="only these sets (comma-separated)")
    parser.add_argument("--extractors", default=None, help="names (default: every one)")
    parser.add_argument("--limit", type=int, default=None, help="pages per set")
    parser.add_argument("--workers", type=int, default=2, help="processes (one set each)")
    parser.add_argument("--out", default=None, help="write the digests here (JSON)")
    parser.add_argument("--compare", default=None, help="a saved run to compare with")
    args = parser.parse_args(argv)

    names = args.extractors.split(",") if args.extractors else sorted(EXTRACTORS)
    sets = [d.name for d in find_datasets([args.data])]
    if args.sets:
        sets = [s for s in sets if s in args.sets.split(",")]
    jobs = [(args.data, set_name, names, args.limit) for set_name in sets]
    with ProcessPoolExecutor(args.workers) as pool:
        per_set = dict(zip(sets, pool.map(digest_set, jobs), strict=True))

    summary = {
        set_name: {
            name: hashlib.sha1(json.dumps(pages, sort_keys=True).encode()).hexdigest()[:16]
            for name, pages in by_extractor.items()
        }
        for set_name, by_extractor in per_set.items()
    }
    for set_name, by_extractor in summary.items():
        print(set_name, " ".join(f"{n}={d}" for n, d in by_extractor.items()))
    if args.out:
        Path(args.out).parent.mkdir(parents=True, exist_ok=True)
        Path(args.out).write_text(json.dumps({"summary": summary, "pages": per_set}, indent=1))
    if not args.compare:
        return 0
    saved = json.loads(Path(args.compare).read_text())["pages"]
    differences = 0
    for set_name, by_extractor in per_set.items():
        for name, pages in by_extractor.items():
            before = saved.get(set_name, {}).get(name)
            if before is None:
                print(f"{set_name} {name}: not in the saved run")
                continue
            changed = sorted(p for p in pages if pages[p] != before.get(p))
            differences += len(changed)
            if changed:
                print(f"{set_name} {name}: {len(changed)} pages differ, e.g. {changed[:5]}")
    print("identical" if not differences else f"{differences} page outputs differ")
    return 1 if differences else 0


if __name__ == "__main__":
    sys.exit(main())
