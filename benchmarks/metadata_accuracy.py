#!/usr/bin/env python
"""Per-field accuracy of article metadata (publication date, authors, headline): ours
beside trafilatura's and newspaper4k's, on the same labelled pages; and what metadata
and Markdown cost per page.

    python -m benchmarks.metadata_accuracy [--limit N] [--json FILE]
    python -m benchmarks.metadata_accuracy --cost-parts

trafilatura comes with the ``[bench]`` extra; newspaper4k does not (``pip install
newspaper4k==0.9.6``, the version docs/output.md reports): without it its column is
skipped.

The labels are those the data sets carry (see each set's README for its licence):
wcxb-dev (``author``, ``publish_date``, ``title``), trafilatura-eval (``meta_author``,
``meta_date``, ``title``; trafilatura's own test data, so it favours trafilatura),
mozilla-readability (``byline``) and zh-cwced-dev (``author``, ``date``).

- date: right if ours agrees with the label to the label's precision (year, month or
  day); a missing date is wrong;
- authors: right if the label and our author names are the same words (case, order and
  punctuation aside), or the label is one of our names;
- headline: right if equal to the label (case and whitespace aside).

Cost: on wcxb-dev, the median ms per page of ``extract`` for text alone and with
Markdown and metadata, each page run both ways in turn. ``--cost-parts`` (the default
extractor only, no accuracy) runs each page six ways, in an order that turns from page
to page: text alone, with Markdown, with metadata, with both, and the last two without
htmldate's date search (``metadata.article._htmldate`` replaced for those runs: what
the declarations and Markdown cost without it). Not a test: nothing is asserted.
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from scrapy_boilerplate import get_extractor
from scrapy_boilerplate.evaluation import open_dataset
from scrapy_boilerplate.registry import DEFAULT_EXTRACTOR

from .speed import turned

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT.parent / "shared" / "data"
#: set -> {field: label key}
LABELS = {
    "wcxb-dev": {"date": "publish_date", "authors": "author", "headline": "title"},
    "trafilatura-eval": {"date": "meta_date", "authors": "meta_author", "headline": "title"},
    "mozilla-readability": {"authors": "byline"},
    "zh-cwced-dev": {"date": "date", "authors": "author"},
}
_WORD = re.compile(r"\w+")


def words(text: str) -> list[str]:
    return _WORD.findall(text.lower())


def date_right(label: str, ours: str | None) -> bool:
    match = re.match(r"(\d{4})(?:-(\d{2}))?(?:-(\d{2}))?", label.strip())
    if not match or not ours:
        return False
    precision = 4 + sum(3 for g in match.groups()[1:] if g)
    return ours[:precision] == match.group(0)[:precision]


def authors_right(label: str, ours: list[str]) -> bool:
    if not ours:
        return False
    if sorted(words(label)) == sorted(w for name in ours for w in words(name)):
        return True
    return any(words(name) == words(label) for name in ours)


def headline_right(label: str, ours: str | None) -> bool:
    return bool(ours) and " ".join(label.lower().split()) == " ".join(ours.lower().split())


def ours_runner() -> Callable[[str, str | None], dict[str, Any]]:
    extractor = get_extractor("article")

    def run(html: str, url: str | None) -> dict[str, Any]:
        meta = extractor.extract(html, url, metadata=True).metadata or {}
        return {
            "date": meta.get("datePublished"),
            "authors": [a["name"] for a in meta.get("authors", [])],
            "headline": meta.get("headline"),
        }

    return run


def trafilatura_runner() -> Callable[[str, str | None], dict[str, Any]] | None:
    try:
        from trafilatura import extract_metadata
    except ImportError:
        return None

    def run(html: str, url: str | None) -> dict[str, Any]:
        meta = extract_metadata(html, default_url=url)
        if meta is None:
            return {"date": None, "authors": [], "headline": None}
        authors = [a.strip() for a in (meta.author or "").split(";") if a.strip()]
        return {"date": meta.date, "authors": authors, "headline": meta.title}

    return run


def newspaper_runner() -> Callable[[str, str | None], dict[str, Any]] | None:
    try:
        import newspaper
    except ImportError:
        return None

    def run(html: str, url: str | None) -> dict[str, Any]:
        # no network: newspaper would fetch images to choose a top image
        article = newspaper.Article(url or "http://example.com/", fetch_images=False)
        article.download(input_html=html)
        article.parse()
        date = article.publish_date.isoformat() if article.publish_date else None
        return {"date": date, "authors": list(article.authors), "headline": article.title}

    return run


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", default=str(DATA))
    parser.add_argument("--limit", type=int, default=None, help="pages per set")
    parser.add_argument("--json", default=None)
    parser.add_argument(
        "--cost-parts", action="store_true", help="only the cost, by part (see above)"
    )
    args = parser.parse_args(argv)
    if args.cost_parts:
        parts = measure_cost_parts(Path(args.data) / "wcxb-dev", args.limit)
        text = parts["text"]
        print(f"wcxb-dev, {DEFAULT_EXTRACTOR}, median ms per page ({parts.pop('pages')} pages)")
        for name, ms in parts.items():
            print(f"  {name:32s} {ms:6.2f}  x{ms / text:.2f}")
        return 0

    runners = {"scrapy-boilerplate": ours_runner()}
    for name, make in (("trafilatura", trafilatura_runner), ("newspaper4k", newspaper_runner)):
        runner = make()
        if runner is None:
            print(f"{name} not installed: skipped", file=sys.stderr)
        else:
            runners[name] = runner
    checks = {"date": date_right, "authors": authors_right, "headline": headline_right}
    # counts[set][field][runner] = [right, labelled]
    counts: dict[str, dict[str, dict[str, list[int]]]] = {}
    for set_name, fields in LABELS.items():
        dataset = open_dataset(Path(args.data) / set_name)
        per_set = counts.setdefault(set_name, {})
        for page in dataset.iter_pages(limit=args.limit):
            labels = {
                f: (page.title if key == "title" else page.extras.get(key))
                for f, key in fields.items()
            }
            labels = {f: v for f, v in labels.items() if isinstance(v, str) and v.strip()}
            if not labels:
                continue
            for name, run in runners.items():
                try:
                    found = run(page.html, page.url)
                except Exception:  # noqa: BLE001 - a library's failure is a miss
                    found = {"date": None, "authors": [], "headline": None}
                for field, label in labels.items():
                    cell = per_set.setdefault(field, {}).setdefault(name, [0, 0])
                    cell[0] += checks[field](label, found.get(field))
                    cell[1] += 1
        print(f"{set_name}: done", file=sys.stderr)

    costs = [measure_cost(Path(args.data) / "wcxb-dev", args.limit, n) for n in COST_EXTRACTORS]
    lines = ["| set | field | pages | " + " | ".join(runners) + " |"]
    lines.append("|---|---|---:|" + "---:|" * len(runners))
    for set_name, fields in counts.items():
        for field, by_runner in fields.items():
            labelled = next(iter(by_runner.values()))[1]
            cells = [f"{by_runner[n][0] / by_runner[n][1]:.3f}" for n in runners]
            lines.append(f"| {set_name} | {field} | {labelled} | " + " | ".join(cells) + " |")
    lines.append("")
    for cost in costs:
        lines.append(
            f"Cost on wcxb-dev with {cost['extractor']} ({cost['pages']} pages, median ms per "
            f"page, each page both ways in turn): text alone {cost['text_ms']:.2f}, with "
            f"Markdown and metadata {cost['full_ms']:.2f} "
            f"(+{cost['full_ms'] / cost['text_ms'] - 1:.0%})."
        )
    print("\n".join(lines))
    if args.json:
        Path(args.json).write_text(json.dumps({"counts": counts, "cost": costs}, indent=2))
    return 0


#: the cost is measured with the default extractor and with boilerpipe's ``article``
COST_EXTRACTORS = (DEFAULT_EXTRACTOR, "article")


def measure_cost(path: Path, limit: int | None, name: str = DEFAULT_EXTRACTOR) -> dict[str, Any]:
    """Median ms per page of ``name`` on text alone and with Markdown and metadata."""
    extractor = get_extractor(name)
    text_ms: list[float] = []
    full_ms: list[float] = []
    for page in open_dataset(path).iter_pages(limit=limit):
        t0 = time.perf_counter()
        extractor.extract(page.html, page.url)
        t1 = time.perf_counter()
        extractor.extract(page.html, page.url, formats=("markdown",), metadata=True)
        t2 = time.perf_counter()
        text_ms.append((t1 - t0) * 1000)
        full_ms.append((t2 - t1) * 1000)
    return {
        "extractor": name,
        "pages": len(text_ms),
        "text_ms": statistics.median(text_ms),
        "full_ms": statistics.median(full_ms),
    }


#: the ways ``--cost-parts`` runs each page: extract's keywords, and whether htmldate runs
COST_PARTS: dict[str, tuple[dict[str, Any], bool]] = {
    "text": ({}, True),
    "markdown": ({"formats": ("markdown",)}, True),
    "metadata": ({"metadata": True}, True),
    "markdown+metadata": ({"formats": ("markdown",), "metadata": True}, True),
    "metadata, no htmldate": ({"metadata": True}, False),
    "markdown+metadata, no htmldate": ({"formats": ("markdown",), "metadata": True}, False),
}


def measure_cost_parts(path: Path, limit: int | None) -> dict[str, float]:
    """Median ms per page of the default extractor run each of the :data:`COST_PARTS`
    ways (and ``pages``, how many pages)."""
    from scrapy_boilerplate.metadata import article

    extractor = get_extractor(DEFAULT_EXTRACTOR)
    htmldate = article._htmldate
    names = list(COST_PARTS)
    times: dict[str, list[float]] = {name: [] for name in names}
    try:
        for i, page in enumerate(open_dataset(path).iter_pages(limit=limit)):
            for name in turned(names, i):
                kwargs, with_htmldate = COST_PARTS[name]
                article._htmldate = htmldate if with_htmldate else _no_date
                t0 = time.perf_counter()
                extractor.extract(page.html, page.url, **kwargs)
                times[name].append((time.perf_counter() - t0) * 1000)
    finally:
        article._htmldate = htmldate
    out: dict[str, float] = {"pages": len(times["text"])}
    out.update({name: statistics.median(values) for name, values in times.items()})
    return out


def _no_date(
    root: Any, url: str | None, extensive: bool = True, deadline: float | None = None
) -> None:
    return None


if __name__ == "__main__":
    sys.exit(main())
