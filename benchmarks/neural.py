"""Web2Text benchmarks: labelling recovery, block-level quality, speed.

    python -m benchmarks.neural recovery [DATA_DIR]          # share of reference recovered
    python -m benchmarks.neural blocks [DATA_DIR] --set cleaneval-train \
        --compare article,trafilatura,readability             # block-level acc / P / R / F1
    python -m benchmarks.neural speed [DATA_DIR] --sets wcxb-dev,cleaneval-train
    python -m benchmarks.neural trainsets [DATA_DIR]                # post-filters, training sets

``recovery``: for every set, the share of the reference's non-space characters that the
automatic labelling (training/alignment.py) aligns to the page's blocks, and the share that
lands in blocks it labels content (after the 2/3 rule). For the snippet-only set, the share
of must-contain snippets found in exactly one block.

``blocks``: every block of every page labelled by the alignment with the reference; each
extractor's prediction per block is scored micro-averaged over all blocks, as in the
Web2Text paper. ``web2text labeler`` (the Viterbi path; ``web2text-unary``: lambda = 0)
and ``web2text`` (the extractor: that path, then the comment-section filter) label our
blocks directly; any other extractor's text output is aligned to the blocks with the same
procedure and the 2/3 rule applied (the paper's evaluateOtherMethods).

``trainsets``: the rule for a step after the labeler (docs/neural.md): on the four sets
the shipped model may train on (wcxb-dev: its article pages, the ones it trained on), the
evaluate command's F1 (token F1; trafilatura-eval: snippet F1) of each variant of the
``web2text`` extractor; a step is kept only if the mean is not below the labeler's.

``speed``: milliseconds per page (median, p95 wall clock; median CPU time, which a busy
machine inflates less), parsing included, single thread.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

from scrapy_boilerplate.evaluation.datasets import find_datasets, open_dataset
from scrapy_boilerplate.training.alignment import (
    GAP,
    block_source,
    label_blocks,
    label_blocks_from_snippets,
)
from scrapy_boilerplate.training.dataset import parse_page

ROOT = Path(__file__).resolve().parents[1]

DEFAULT_DATA = ROOT.parent / "shared" / "data"


def _recovery(args: argparse.Namespace) -> int:
    rows = []
    for ds in find_datasets([args.data]):
        pages = aligned_share = content_share = 0.0
        matched = total = content = 0
        snippets_found = snippets = 0
        for page in ds.iter_pages(limit=args.limit):
            doc = parse_page(page.html)
            if page.main_text and page.main_text.strip():
                labels, result = label_blocks(doc.blocks, page.main_text)
                source, spans = block_source([b.text for b in doc.blocks])
                kept_content = 0
                for (s, e), y in zip(spans, labels, strict=False):
                    if y:
                        part = result.aligned[s:e]
                        kept_content += sum(1 for ch in part if ch != GAP and not ch.isspace())
                matched += result.matched_clean
                total += result.total_clean
                content += min(kept_content, result.total_clean)
                pages += 1
                aligned_share += result.recovered
                content_share += min(kept_content, result.total_clean) / max(result.total_clean, 1)
            elif page.with_snippets:
                labels = label_blocks_from_snippets(doc.blocks, page.with_snippets, None)
                snippets += len(page.with_snippets)
                snippets_found += sum(1 for y in labels if y == 1)
        row = {"set": ds.name, "pages": int(pages)}
        if total:
            row.update(
                aligned_chars=matched / total,
                content_chars=content / total,
                aligned_page_mean=aligned_share / pages,
                content_page_mean=content_share / pages,
            )
        if snippets:
            row.update(snippets=snippets, snippet_blocks=snippets_found / snippets)
        rows.append(row)
        print(json.dumps(row), file=sys.stderr, flush=True)
    _print_recovery(rows, args.format)
    return 0


def _print_recovery(rows: list[dict], fmt: str) -> None:
    if fmt == "json":
        print(json.dumps(rows, indent=1))
        return
    print(
        "| set | pages | reference chars aligned | in blocks labelled content | page mean (aligned / content) |"
    )
    print("|---|---:|---:|---:|---:|")
    for r in rows:
        if "aligned_chars" in r:
            print(
                f"| {r['set']} | {r['pages']} | {r['aligned_chars']:.3f} | {r['content_chars']:.3f} "
                f"| {r['aligned_page_mean']:.3f} / {r['content_page_mean']:.3f} |"
            )
        elif "snippets" in r:
            print(
                f"| {r['set']} | (snippets) | {r['snippets']} must-contain snippets | "
                f"{r['snippet_blocks']:.3f} found in exactly one block | |"
            )


def _metrics(pred: np.ndarray, truth: np.ndarray) -> dict[str, float]:
    from scrapy_boilerplate.training.train import block_metrics  # numpy only at import

    return block_metrics(pred, truth)


def _blocks(args: argparse.Namespace) -> int:
    from scrapy_boilerplate.evaluation.runners import get_runner
    from scrapy_boilerplate.filters.base import set_flags
    from scrapy_boilerplate.neural.features import page_features
    from scrapy_boilerplate.neural.filter import web2text
    from scrapy_boilerplate.neural.model import get_model
    from scrapy_boilerplate.neural.viterbi import viterbi

    ds = open_dataset(Path(args.data) / args.set)
    model = get_model(args.model)
    others = [get_runner(n) for n in args.compare.split(",") if n]
    # the web2text extractor: the labeler's Viterbi path, then the extractor's own steps
    # after the labeler (the comment-section filter)
    names = ["web2text", "web2text labeler", "web2text-unary"] + [r.name for r in others]
    after_labeler = list(web2text(model_dir=args.model))[1:]
    preds: dict[str, list[np.ndarray]] = {n: [] for n in names}
    truths: list[np.ndarray] = []
    n_pages = 0
    for page in ds.iter_pages(limit=args.limit):
        if not page.main_text or not page.main_text.strip():
            continue
        doc = parse_page(page.html)
        if not doc.blocks:
            continue
        labels, _ = label_blocks(doc.blocks, page.main_text)
        truths.append(np.asarray(labels))
        feats, edges = page_features(doc, extended=model.extended)
        lu, le = model.log_probs(feats, edges)
        path = viterbi(lu, le, model.lam)
        preds["web2text labeler"].append(path)
        set_flags(doc.blocks, [bool(flag) for flag in path.tolist()])
        for step in after_labeler:
            step(doc)
        preds["web2text"].append(np.array([b.is_content for b in doc.blocks], dtype=path.dtype))
        preds["web2text-unary"].append(lu.argmax(1))
        for runner in others:
            try:
                text = runner(page.html, page.url, page.lang)
            except Exception:  # noqa: BLE001 - a crash is an empty output
                text = ""
            y, _ = label_blocks(doc.blocks, text)
            preds[runner.name].append(np.asarray(y))
        n_pages += 1
    truth = np.concatenate(truths) if truths else np.zeros(0)
    results = {
        n: _metrics(np.concatenate(p) if p else np.zeros(0), truth) for n, p in preds.items()
    }
    if args.format == "json":
        print(json.dumps({"set": ds.name, "pages": n_pages, "results": results}, indent=1))
        return 0
    print(
        f"{ds.name}: {n_pages} pages, {len(truth)} blocks ({int(truth.sum())} content), "
        f"lambda {model.lam}"
    )
    print("| extractor | accuracy | precision | recall | F1 |")
    print("|---|---:|---:|---:|---:|")
    for n, m in results.items():
        print(
            f"| {n} | {m['accuracy']:.3f} | {m['precision']:.3f} | {m['recall']:.3f} | {m['f1']:.3f} |"
        )
    return 0


def _speed(args: argparse.Namespace) -> int:
    from scrapy_boilerplate.evaluation.runners import get_runner

    names = args.extractors.split(",")
    runners = [get_runner(n) for n in names]
    print("| set | extractor | median ms | p95 ms | median CPU ms | pages |")
    print("|---|---|---:|---:|---:|---:|")
    for set_name in args.sets.split(","):
        ds = open_dataset(Path(args.data) / set_name)
        pages = list(ds.iter_pages(limit=args.limit))
        for runner in runners:
            runner(pages[0].html, pages[0].url, pages[0].lang)  # warm up (model loading)
            times = []
            cpu = []
            for page in pages:
                t = time.perf_counter()
                c = time.process_time()
                try:
                    runner(page.html, page.url, page.lang)
                except Exception:  # noqa: BLE001
                    pass
                cpu.append((time.process_time() - c) * 1000)
                times.append((time.perf_counter() - t) * 1000)
            times.sort()
            p95 = times[min(len(times) - 1, int(0.95 * len(times)))]
            print(
                f"| {set_name} | {runner.name} | {statistics.median(times):.1f} | {p95:.1f} "
                f"| {statistics.median(cpu):.1f} | {len(times)} |",
                flush=True,
            )
    return 0


#: variants of the web2text extractor that ``trainsets`` compares, as chain specs
TRAINSET_VARIANTS: dict[str, Any] = {
    "labeler alone": [{"web2text": {"drop_comments": False}}],
    "+ comment_sections (shipped)": "web2text",
    "+ comment_sections + fallback article": [{"web2text": {"fallback": "article"}}],
    "+ comment_sections, wrapper_holds_heading": [
        "web2text_labeler",
        {"comment_sections": {"wrapper_holds_heading": True}},
    ],
}


def _trainsets(args: argparse.Namespace) -> int:
    from scrapy_boilerplate.evaluation.evaluate import RunnerResult, run_page
    from scrapy_boilerplate.evaluation.runners import chain_runner
    from scrapy_boilerplate.training.dataset import SHIPPED_TRAINING_SETS

    runners = [chain_runner(spec, name) for name, spec in TRAINSET_VARIANTS.items()]
    table: dict[str, list[float]] = {runner.name: [] for runner in runners}
    sets = list(SHIPPED_TRAINING_SETS)
    for set_name in sets:
        ds = open_dataset(Path(args.data) / set_name)
        results = [RunnerResult(runner.name, runner.kind, runner.version) for runner in runners]
        for page in ds.iter_pages(limit=args.limit):
            if set_name == "wcxb-dev" and page.extras.get("page_type") != "article":
                continue
            for runner, result in zip(runners, results, strict=True):
                result.pages.append(run_page(runner, page, "auto"))
        for result in results:
            result.finish(n_bootstrap=0)
            # as the evaluate command's F1 table: token F1, else (snippets only) snippet F1
            summary = result.shingles if result.shingles is not None else result.snippets
            table[result.runner].append(summary.f1)
    print("| variant | " + " | ".join(sets) + " | mean |")
    print("|---|" + "---:|" * (len(sets) + 1))
    for name, values in table.items():
        cells = " | ".join(f"{v:.4f}" for v in values)
        print(f"| {name} | {cells} | {sum(values) / len(values):.4f} |")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("recovery", help="share of reference text the labelling recovers")
    b = sub.add_parser("blocks", help="block-level accuracy / precision / recall / F1")
    s = sub.add_parser("speed", help="milliseconds per page, parsing included")
    t = sub.add_parser("trainsets", help="web2text's post-filters on the training sets")
    for p in (r, b, s, t):
        p.add_argument("data", nargs="?", default=str(DEFAULT_DATA), help="data folder")
        p.add_argument("--limit", type=int, default=None, help="first N pages of each set")
    for p in (r, b):
        p.add_argument("--format", choices=("markdown", "json"), default="markdown")
    b.add_argument("--set", default="cleaneval-train")
    b.add_argument("--model", default=None, help="model directory (default: the shipped one)")
    b.add_argument("--compare", default="article,trafilatura,readability")
    s.add_argument("--sets", default="wcxb-dev,cleaneval-train,mozilla-readability,zh-cwced-dev")
    s.add_argument("--extractors", default="web2text,article,trafilatura,readability")
    r.set_defaults(func=_recovery)
    b.set_defaults(func=_blocks)
    s.set_defaults(func=_speed)
    t.set_defaults(func=_trainsets)
    args = parser.parse_args(argv)
    return args.func(args)


if __name__ == "__main__":
    sys.exit(main())
