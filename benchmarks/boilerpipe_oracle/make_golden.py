"""Write the golden fixtures of tests/golden/: pages plus the Java boilerpipe's outputs.

    python -m benchmarks.boilerpipe_oracle.make_golden [--data ../shared/data]

Draws pages at random (fixed seed, pages under 150 kB) from the permissively licensed sets
of the data folder, copies them (gzipped) to ``tests/golden/pages/``, runs every Java
extractor over them and writes ``tests/golden/expected.jsonl``. It also runs the oracle
over the hand-written cases of ``tests/golden/crafted/*.html`` (their parsed blocks, for
the segmentation tests) into ``tests/golden/crafted_expected.jsonl``. Needs Java and
libboilerpipe-java (see README.md here).
"""

from __future__ import annotations

import argparse
import gzip
import json
import random
import sys
from pathlib import Path

from benchmarks.boilerpipe_oracle.run_oracle import EXTRACTORS, run_oracle

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent

GOLDEN = ROOT / "tests" / "golden"
#: set -> (pages to draw, licence as the set's README states it)
SETS = {
    "wcxb-dev": (10, "CC-BY-4.0"),
    "mozilla-readability": (8, "Apache-2.0"),
    "trafilatura-eval": (7, "Apache-2.0"),
    "zh-cwced-dev": (5, "MIT"),
}
MAX_BYTES = 150_000
SEED = 20261123


def pick_pages(data: Path) -> list[dict]:
    rng = random.Random(SEED)
    chosen = []
    for name, (count, licence) in SETS.items():
        records = [json.loads(line) for line in open(data / name / "truth.jsonl", encoding="utf-8")]
        rng.shuffle(records)
        taken = 0
        for rec in records:
            path = data / name / rec["page_file"]
            raw = path.read_bytes()
            html = gzip.decompress(raw) if path.name.endswith(".gz") else raw
            if len(html) > MAX_BYTES:
                continue
            chosen.append(
                {
                    "id": f"{name}--{rec['id']}",
                    "set": name,
                    "source_id": rec["id"],
                    "url": rec.get("url"),
                    "lang": rec.get("lang"),
                    "licence": licence,
                    "html": html,
                }
            )
            taken += 1
            if taken == count:
                break
    return chosen


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", default=str(ROOT.parent / "shared" / "data"))
    args = parser.parse_args(argv)
    pages_dir = GOLDEN / "pages"
    pages_dir.mkdir(parents=True, exist_ok=True)
    for old in pages_dir.glob("*.html.gz"):
        old.unlink()
    pages = pick_pages(Path(args.data))
    tasks = []
    for page in pages:
        path = pages_dir / f"{page['id']}.html.gz"
        with gzip.GzipFile(path, "wb", mtime=0) as f:
            f.write(page["html"])
        tasks.append((page["id"], str(path)))
    records = run_oracle(tasks, list(EXTRACTORS))
    meta = {
        p["id"]: {k: p[k] for k in ("set", "source_id", "url", "lang", "licence")} for p in pages
    }
    with open(GOLDEN / "expected.jsonl", "w", encoding="utf-8") as out:
        for rec in sorted(records, key=lambda r: (r["id"], r["extractor"])):
            if rec.get("error"):
                raise SystemExit(f"oracle failed on {rec['id']}: {rec['error']}")
            out.write(
                json.dumps(
                    {
                        "id": rec["id"],
                        "extractor": rec["extractor"],
                        "title": rec["title"],
                        "text": rec["text"],
                        **meta[rec["id"]],
                    },
                    ensure_ascii=False,
                )
                + "\n"
            )
    crafted = sorted((GOLDEN / "crafted").glob("*.html"))
    records = run_oracle([(p.stem, str(p)) for p in crafted], ["blocks"])
    with open(GOLDEN / "crafted_expected.jsonl", "w", encoding="utf-8") as out:
        for rec in sorted(records, key=lambda r: r["id"]):
            blocks = [
                {k: b[k] for k in ("text", "num_words", "num_words_in_anchor_text", "tag_level")}
                for b in rec["blocks"]
            ]
            out.write(
                json.dumps(
                    {"id": rec["id"], "title": rec["title"], "blocks": blocks}, ensure_ascii=False
                )
                + "\n"
            )
    print(f"{len(pages)} pages, {len(crafted)} crafted cases written to {GOLDEN}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
