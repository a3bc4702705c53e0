#!/usr/bin/env python
"""Do other libraries, where they agree, label the snippet set's blocks well enough to train on?

    python -m benchmarks.boosted_teachers [--teachers trafilatura_no_comments,readability]
        [--weight 0.5] [--unseen] [--seed N]

trafilatura-eval is the most varied of the four training sets (985 pages of hundreds of
sites in a dozen languages), but its references are must / must-not snippets: most of
its blocks train nothing. Self-training on them taught the trees nothing new
(``benchmarks.boosted_self_training``: their own sure decisions). Here the labels come
from outside the trees: each teacher (a library the issue compares with, run as the
quality benchmark runs it) extracts the page, its text is aligned with the page's blocks
as a reference text is (``training.alignment``), and a block no snippet labels takes the
label all teachers agree on (content where every teacher keeps it, boilerplate where
none does; unlabelled where they differ), at ``--weight`` times its usual weight. The
snippets' own labels are never changed. Within cross-validation only the fold's training
pages are relabelled, so a held-out page's teachers never reach its model. Scored with
``benchmarks.boosted_static``'s harness (folds by site on the four training sets;
``--unseen``: the six sets no model trains on; ``--seed``: LightGBM's). The teachers'
labels are computed once and kept in ``<out>/labels-<teachers>.npz``. An experiment, not
in the package; needs the ``[train]`` and ``[bench]`` extras.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager
from pathlib import Path
from typing import Any

import numpy as np

from benchmarks.boosted_self_training import SNIPPET_SETS, relabelled_training
from benchmarks.boosted_static import experiment_parser, measure, print_scores
from benchmarks.grouped_cv import ROOT, log
from scrapy_boilerplate.evaluation.datasets import open_dataset
from scrapy_boilerplate.evaluation.runners import get_runner
from scrapy_boilerplate.training.alignment import label_blocks
from scrapy_boilerplate.training.boosted import BoostedConfig, BoostedCorpus
from scrapy_boilerplate.training.dataset import code_version, parse_page

OUT = ROOT / "benchmarks" / "out" / "boosted_teachers"
TEACHERS = ("trafilatura_no_comments", "readability")


def teacher_block_labels(
    html: str, url: str | None, lang: str | None, teachers: Sequence[Callable[..., str]]
) -> np.ndarray:
    """Per teacher (rows) and block (columns) of the page as the corpus parses it: 1 if
    the teacher's text keeps the block (the alignment's rule for a reference), else 0."""
    blocks = parse_page(html).blocks
    out = np.zeros((len(teachers), len(blocks)), np.int8)
    for i, teacher in enumerate(teachers):
        try:
            text = teacher(html, url, lang)
        except Exception:  # noqa: BLE001 - a library failing on a page keeps nothing
            text = ""
        if blocks and text.strip():
            out[i] = label_blocks(blocks, text, count_whitespace=False)[0]
    return out


def teacher_labels(
    data: Path, names: Sequence[str], cache: Path
) -> dict[tuple[str, str], np.ndarray]:
    """``(set, page id)`` -> the teachers' block labels of every page of the snippet
    sets, computed once and kept in ``cache`` (name it by :func:`code_version`: the
    labels are per block, and the blocks follow the parser)."""
    if cache.exists():
        z = np.load(cache, allow_pickle=True)
        return dict(zip(map(tuple, z["keys"]), z["labels"], strict=True))
    runners = [get_runner(name) for name in names]
    found: dict[tuple[str, str], np.ndarray] = {}
    for name in SNIPPET_SETS:
        ds = open_dataset(data / name)
        for k, page in enumerate(ds.iter_pages()):
            found[(name, page.id)] = teacher_block_labels(page.html, page.url, page.lang, runners)
            if k % 100 == 0:
                log(f"teachers: {name} page {k}")
    cache.parent.mkdir(parents=True, exist_ok=True)
    keys = np.array(list(found), dtype=object)
    labels = np.empty(len(found), dtype=object)
    labels[:] = list(found.values())
    np.savez(cache, keys=keys, labels=labels)
    return found


def agreed_labels(
    corpus: BoostedCorpus, pages: Sequence[int], by_page: dict[tuple[str, str], np.ndarray]
) -> tuple[np.ndarray, np.ndarray]:
    """Rows of ``pages`` that no snippet labels and on which every teacher agrees, and
    that label (1 all keep it, 0 none does)."""
    rows, labels = [], []
    for p in pages:
        taught = by_page.get((corpus.datasets[p], corpus.page_ids[p]))
        lo, hi = int(corpus.offsets[p]), int(corpus.offsets[p + 1])
        if taught is None or taught.shape[1] != hi - lo:
            continue
        agree = (taught.min(axis=0) == taught.max(axis=0)) & (corpus.labels[lo:hi] < 0)
        found = np.flatnonzero(agree)
        rows.append(lo + found)
        labels.append(taught[0, found])
    if not rows:
        return np.zeros(0, np.int64), np.zeros(0, np.int8)
    return np.concatenate(rows), np.concatenate(labels).astype(np.int8)


def taught(
    by_page: dict[tuple[str, str], np.ndarray], weight: float
) -> AbstractContextManager[None]:
    """For the run: every fit of the trees with the snippet sets' unlabelled blocks
    labelled by the teachers where they agree (:func:`agreed_labels`), at ``weight``
    times their weight."""

    def relabel(
        corpus: BoostedCorpus, pages: Sequence[int], cfg: BoostedConfig, first_fit: Any
    ) -> tuple[np.ndarray, np.ndarray]:
        return agreed_labels(corpus, pages, by_page)

    return relabelled_training(relabel, weight, "teachers")


def main(argv: list[str] | None = None) -> int:
    parser = experiment_parser(__doc__.split("\n\n")[0], OUT)
    parser.add_argument("--teachers", default=",".join(TEACHERS))
    parser.add_argument("--weight", type=float, default=0.5)
    args = parser.parse_args(argv)
    names = [n for n in args.teachers.split(",") if n]
    # keyed by the package's code, as the corpus is: a changed parser gives other blocks
    cache = args.out / f"labels-{'+'.join(names)}-{code_version()}.npz"
    by_page = teacher_labels(args.data, names, cache)
    name = f"{'+'.join(names)}-{args.weight:g}-s{args.seed}"
    with taught(by_page, args.weight):
        scores = measure(args, args.out / name)
    print_scores(f"boosted, taught by {', '.join(names)} ({name})", scores)
    return 0


if __name__ == "__main__":
    sys.exit(main())
