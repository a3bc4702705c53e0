#!/usr/bin/env python
"""How faithfully our Markdown keeps the structure of the content, on the pages of
mozilla-readability, whose reference is HTML (Readability.js's reviewed output).

    python -m benchmarks.markdown_fidelity [--extractor article] [--set PATH]

For each page: our Markdown is parsed back with markdown-it-py (CommonMark + tables) and
its structural items are compared with the reference HTML's: headings (any level), list
items and table cells, each as (kind, normalised text). Reported, summed over pages:

- structure precision / recall: items of ours found in the reference (same kind and
  text) over all of ours / all of the reference's; they mix what the extractor kept with
  how it was rendered;
- rendering recall: of the reference's items whose text our plain output holds (content
  we kept: a paragraph of ours, or, from 20 characters on, part of one), the share our
  Markdown renders as the same kind of item: the renderer's own fidelity;
- token F1 (the project's shingle metric) of the Markdown's text and of ``text``, mean
  over pages: the two must agree (within 0.005).

Not a test: nothing is asserted. Prints a Markdown table (and ``--json FILE``).
"""

from __future__ import annotations

import argparse
import collections
import json
import statistics
import sys
from pathlib import Path

from lxml import html as lxml_html
from markdown_it import MarkdownIt

from scrapy_boilerplate import get_extractor
from scrapy_boilerplate.evaluation import open_dataset
from scrapy_boilerplate.evaluation.metrics import score_page

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_SET = ROOT.parent / "shared" / "data" / "mozilla-readability"
KINDS = {
    **{f"h{n}": "heading" for n in range(1, 7)},
    "li": "list item",
    "td": "table cell",
    "th": "table cell",
}
_MARKDOWN = MarkdownIt("commonmark").enable("table")


def normalise(text: str) -> str:
    return " ".join(text.split()).lower()


def items(root) -> collections.Counter[tuple[str, str]]:
    """(kind, text) of every heading, list item and table cell under ``root``."""
    found: collections.Counter[tuple[str, str]] = collections.Counter()
    for element in root.iter(*KINDS):
        text = normalise(element.text_content())
        if text:
            found[(KINDS[element.tag], text)] += 1
    return found


def markdown_root(markdown: str):
    rendered = _MARKDOWN.render(markdown) or "<div></div>"
    return lxml_html.fromstring(f"<div>{rendered}</div>")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--set", default=str(DEFAULT_SET))
    parser.add_argument("--extractor", default="article")
    parser.add_argument("--json", default=None)
    args = parser.parse_args(argv)

    dataset = open_dataset(args.set)
    extractor = get_extractor(args.extractor)
    ours_total = ref_total = matched = 0
    kept_total = kept_rendered = 0
    per_kind: dict[str, list[int]] = collections.defaultdict(lambda: [0, 0])
    f1_text: list[float] = []
    f1_markdown: list[float] = []
    pages = 0
    for page in dataset.iter_pages():
        expected_file = page.extras.get("expected_html_file")
        if not expected_file:
            continue
        reference_root = lxml_html.fromstring(
            (Path(args.set) / expected_file).read_text(encoding="utf-8") or "<div></div>"
        )
        result = extractor.extract(page.html, page.url, formats=("markdown",))
        ours_root = markdown_root(result.markdown or "")
        ours, reference = items(ours_root), items(reference_root)
        ours_total += sum(ours.values())
        ref_total += sum(reference.values())
        matched += sum((ours & reference).values())
        plain = normalise(result.text)
        lines = {normalise(line) for line in result.text.split("\n")}
        for (kind, text), count in reference.items():
            # kept: a paragraph of ours, or (long enough not to match by chance) in one
            if text in lines or (len(text) >= 20 and text in plain):
                kept_total += count
                hit = min(count, ours.get((kind, text), 0))
                kept_rendered += hit
                per_kind[kind][0] += count
                per_kind[kind][1] += hit
        markdown_text = ours_root.text_content()
        f1_text.append(score_page(page.main_text, result.text).f1)
        f1_markdown.append(score_page(page.main_text, markdown_text).f1)
        pages += 1

    summary = {
        "set": Path(args.set).name,
        "extractor": args.extractor,
        "pages": pages,
        "structure_precision": matched / ours_total if ours_total else float("nan"),
        "structure_recall": matched / ref_total if ref_total else float("nan"),
        "rendering_recall": kept_rendered / kept_total if kept_total else float("nan"),
        "rendering_recall_by_kind": {
            kind: hit / total for kind, (total, hit) in sorted(per_kind.items()) if total
        },
        "items": {"ours": ours_total, "reference": ref_total, "matched": matched},
        "token_f1_text": statistics.fmean(f1_text),
        "token_f1_markdown": statistics.fmean(f1_markdown),
    }
    lines = [
        f"Markdown fidelity on {summary['set']} ({pages} pages, extractor `{args.extractor}`):",
        "",
        "| measure | value |",
        "|---|---:|",
        f"| structure precision (headings, list items, table cells) | "
        f"{summary['structure_precision']:.3f} |",
        f"| structure recall | {summary['structure_recall']:.3f} |",
        f"| rendering recall (items whose text we kept) | {summary['rendering_recall']:.3f} |",
    ]
    lines += [
        f"| rendering recall: {kind}s | {value:.3f} |"
        for kind, value in summary["rendering_recall_by_kind"].items()
    ]
    lines += [
        f"| token F1 of `text` | {summary['token_f1_text']:.4f} |",
        f"| token F1 of the Markdown's text | {summary['token_f1_markdown']:.4f} |",
    ]
    print("\n".join(lines))
    if args.json:
        Path(args.json).write_text(json.dumps(summary, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
