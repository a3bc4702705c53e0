"""One extractor, one pass over the first pages of a set, in this process alone: median
ms per page and the process's peak RSS (loading included; run one extractor per process).

    python -m benchmarks.one_pass lm wcxb-dev --limit 40

What docs/neural.md reports for ``lm`` (seconds per page: one pass, not best of 3) and
the peak memory of each labeler.
"""

from __future__ import annotations

import argparse
import json
import resource
import time
from pathlib import Path

import numpy as np

from scrapy_boilerplate import get_extractor
from scrapy_boilerplate.evaluation.datasets import open_dataset

DATA = Path(__file__).resolve().parent.parent.parent / "shared" / "data"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("extractor")
    parser.add_argument("set")
    parser.add_argument("--data", type=Path, default=DATA)
    parser.add_argument("--limit", type=int, default=40, help="first N pages (default 40)")
    args = parser.parse_args(argv)
    extractor = get_extractor(args.extractor)
    ms = []
    for page in open_dataset(args.data / args.set).iter_pages(args.limit):
        start = time.perf_counter()
        extractor.extract(page.html, url=page.url)
        ms.append((time.perf_counter() - start) * 1e3)
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # KiB on Linux
    report = {
        "extractor": args.extractor,
        "set": args.set,
        "pages": len(ms),
        "median_ms": round(float(np.median(ms)), 1) if ms else None,
        "peak_rss_mb": round(peak_mb),
    }
    print(json.dumps(report))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
