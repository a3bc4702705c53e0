#!/usr/bin/env python
"""Would web2text reach the paper's CleanEval F1 if it could train on CleanEval?

    python -m benchmarks.cleaneval_in_domain              # ~10 minutes on 2 cores

The Web2Text paper trains and tests on CleanEval and reports block F1 ~0.88. The model we
ship may not train on cleaneval-train (no licence stated: evaluation only), and reaches
0.84-0.85 there. This experiment separates "the method" from "the training data": it
splits cleaneval-train in two halves (by the parity of a hash of each page id, so the
split is fixed), trains two models that are never shipped with the package's own
training command (``--allow-any-set``):

- ``mixed``: the four allowed sets as for the shipped model, plus half A of CleanEval;
- ``cleaneval-only``: half A alone, as the paper trains;

and prints the block-level metrics of the shipped model and of both on half B, which
none of them saw (``benchmarks/neural.py blocks``). Needs the ``train`` extra.
Models and halves go to ``--work`` (a temporary folder by default).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
DEFAULT_DATA = HERE.parents[1] / "shared" / "data"
ALLOWED = ("wcxb-dev", "mozilla-readability", "zh-cwced-dev", "trafilatura-eval")


def split_cleaneval(source: Path, out: Path) -> tuple[Path, Path]:
    """Halves A and B of a dataset folder (truth.jsonl split, pages linked)."""
    halves = (out / "cleaneval-a", out / "cleaneval-b")
    files = []
    for half in halves:
        half.mkdir(parents=True, exist_ok=True)
        pages = half / "pages"
        if not pages.exists():
            pages.symlink_to(source / "pages")
        files.append((half / "truth.jsonl").open("w", encoding="utf-8"))
    with (source / "truth.jsonl").open(encoding="utf-8") as truth:
        for line in truth:
            page_id = json.loads(line)["id"]
            parity = int(hashlib.sha1(page_id.encode()).hexdigest(), 16) % 2
            files[parity].write(line)
    for f in files:
        f.close()
    return halves


def train(sets: list[Path], out: Path, cache: Path, page_types: str | None) -> None:
    cmd = [
        sys.executable, "-m", "scrapy_boilerplate.cli", "train", *map(str, sets),
        "--allow-any-set", "--out", str(out), "--cache", str(cache),
        "--seed", "0", "--threads", "1", "--processes", "1",
    ]  # fmt: skip
    if page_types:
        cmd += ["--page-types", page_types]
    subprocess.run(cmd, check=True)


def block_metrics(data: Path, model: Path | None) -> dict:
    cmd = [sys.executable, str(HERE / "neural.py"), "blocks", str(data), "--set", "cleaneval-b"]
    cmd += ["--compare", "", "--format", "json"]
    if model is not None:
        cmd += ["--model", str(model)]
    done = subprocess.run(cmd, check=True, capture_output=True, text=True)
    return json.loads(done.stdout)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("data", nargs="?", default=str(DEFAULT_DATA), help="data folder")
    parser.add_argument("--work", default=None, help="folder for the halves and models")
    args = parser.parse_args(argv)
    data = Path(args.data)
    work = Path(args.work or tempfile.mkdtemp(prefix="w2t-cleaneval-"))
    half_a, _ = split_cleaneval(data / "cleaneval-train", work / "data")
    cache = work / "cache"
    train([data / s for s in ALLOWED] + [half_a], work / "mixed", cache, "article")
    train([half_a], work / "cleaneval-only", cache, None)
    rows = [
        ("shipped model", None),
        ("mixed", work / "mixed"),
        ("cleaneval-only", work / "cleaneval-only"),
    ]
    print(f"block metrics on half B of cleaneval-train (work folder {work}):")
    print("| model | pages | accuracy | precision | recall | F1 | F1 unary alone |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for name, model in rows:
        got = block_metrics(work / "data", model)
        m, u = got["results"]["web2text"], got["results"]["web2text-unary"]
        print(
            f"| {name} | {got['pages']} | {m['accuracy']:.3f} | {m['precision']:.3f} | "
            f"{m['recall']:.3f} | {m['f1']:.3f} | {u['f1']:.3f} |"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
