#!/usr/bin/env python
"""Do ``lm_fast``'s static token vectors help the default labeler (``boosted``)?

    python -m benchmarks.boosted_static --table DIR --variant sim [--unseen]
    python -m benchmarks.boosted_static --table DIR --variant sim --time

The default labeler's trees read one block at a time and no word of its text. This
experiment appends columns made from the block's text to its 394 and measures the
labeler with them as every ``boosted`` choice was measured: token F1 cross-validated by
site on the four sets that may train the shipped model (``benchmarks.grouped_cv``'s
folds and scoring, WCXB's article pages trained on), and, with ``--unseen``, a model
trained on all of them scored on the six sets no model trains on; ``--time`` measures
what the columns cost beside the features the labeler already computes. Variants:

- ``sim``: the cosine of the block's static vector (the mean of its tokens' rows in
  ``lm_fast``'s table) with the page's (the mean of its blocks' vectors weighted by their
  words), the title's, the previous block's and the next block's (4 columns);
- ``dims+sim``: the same, and the block vector's first 16 PCA columns (20 columns);
- ``bow``: the same four cosines of word counts (``\\w+``, lower-cased) instead of static
  vectors: the similarity without the encoder's knowledge.

The table is the one ``scrapy-boilerplate train --model lm_fast --cache DIR`` keeps in
``DIR/lm_fast_table`` (the shipped model keeps only its tokens' scores); no label enters
it. The columns reach the training and the extractor by replacing the feature function
for the run (the package keeps its own). Needs the ``[train]`` and ``[lm]`` extras.
Writes ``benchmarks/out/boosted_static/<variant>/`` (``boosted/``: grouped_cv's fold
models and results; ``all/``: the model on every page; ``results.json``) and prints the
figures.
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import numpy as np

from benchmarks import forked_corpus_workers, grouped_cv
from benchmarks.grouped_cv import DATA, ROOT, log
from scrapy_boilerplate.evaluation.datasets import open_dataset
from scrapy_boilerplate.evaluation.evaluate import evaluate_runner
from scrapy_boilerplate.evaluation.runners import chain_runner
from scrapy_boilerplate.neural import boosted as boosted_module
from scrapy_boilerplate.neural import boosted_features as features_module
from scrapy_boilerplate.training import boosted as training_module
from scrapy_boilerplate.training.boosted import (
    BoostedConfig,
    build_boosted_corpus,
    export_boosted,
    train_boosted,
)
from scrapy_boilerplate.training.dataset import EVALUATION_ONLY_SETS, SHIPPED_TRAINING_SETS

OUT = ROOT / "benchmarks" / "out" / "boosted_static"
VARIANTS = ("sim", "dims+sim", "bow")
DIMS = 16
SIMILARITIES = ("page", "title", "prev", "next")
_WORD = re.compile(r"\w+")


def _unit(vectors: np.ndarray) -> np.ndarray:
    norms = np.linalg.norm(vectors, axis=-1, keepdims=True)
    return vectors / np.maximum(norms, 1e-6)


def similarities(vectors: np.ndarray, words: np.ndarray, title: np.ndarray) -> np.ndarray:
    """Per block (n x 4) the cosine of its vector with the page's (the words-weighted
    sum of the blocks' vectors), the title's, the previous and the next block's (0 at
    either end and for a zero vector)."""
    unit = _unit(vectors)
    page = _unit((vectors * words[:, None]).sum(axis=0))
    out = np.zeros((len(vectors), 4), dtype=np.float32)
    if len(vectors) == 0:
        return out
    out[:, 0] = unit @ page
    out[:, 1] = unit @ _unit(title)
    neighbours = (unit[1:] * unit[:-1]).sum(axis=1)
    out[1:, 2] = neighbours
    out[:-1, 3] = neighbours
    return out


def word_count_similarities(texts: list[str], title: str) -> np.ndarray:
    """:func:`similarities` of word-count vectors (``\\w+``, lower-cased)."""
    counts = [Counter(_WORD.findall(text.lower())) for text in texts]
    page: Counter[str] = Counter()
    for c in counts:
        page.update(c)
    title_counts = Counter(_WORD.findall(title.lower()))

    def cosine(a: Counter[str], b: Counter[str]) -> float:
        if not a or not b:
            return 0.0
        dot = sum(v * b.get(k, 0) for k, v in a.items())
        return dot / (sum(v * v for v in a.values()) * sum(v * v for v in b.values())) ** 0.5

    out = np.zeros((len(counts), 4), dtype=np.float32)
    for i, c in enumerate(counts):
        out[i, 0] = cosine(c, page)
        out[i, 1] = cosine(c, title_counts)
        out[i, 2] = cosine(c, counts[i - 1]) if i else 0.0
        out[i, 3] = cosine(c, counts[i + 1]) if i + 1 < len(counts) else 0.0
    return out


def text_columns(variant: str, table: Path) -> tuple[list[str], Callable[[Any], np.ndarray]]:
    """The variant's column names and the function that makes them for a Document."""
    if variant == "bow":
        names = [f"bow_sim_{s}" for s in SIMILARITIES]

        def bow(doc: Any) -> np.ndarray:
            title = doc.title or doc.fallback_title or ""
            return word_count_similarities([b.text for b in doc.blocks], title)

        return names, bow
    from scrapy_boilerplate.neural.lm_static import StaticEncoder

    encoder = StaticEncoder(table)
    names = [f"static_sim_{s}" for s in SIMILARITIES]
    if variant == "dims+sim":
        names = [f"static_{i}" for i in range(DIMS)] + names

    def static(doc: Any) -> np.ndarray:
        vectors = encoder.encode([b.text for b in doc.blocks])
        words = np.array([b.num_words for b in doc.blocks], dtype=np.float32)
        title = doc.title or doc.fallback_title or ""
        title_vector = encoder.encode([title])[0] if title else np.zeros(encoder.width)
        sims = similarities(vectors, words, title_vector)
        if variant == "dims+sim":
            return np.hstack([vectors[:, :DIMS], sims])
        return sims

    return names, static


@contextmanager
def extra_columns(names: list[str], make: Callable[[Any], np.ndarray]) -> Iterator[None]:
    """For the run: ``boosted``'s features (training and extraction) end with ``names``,
    made by ``make(doc)``; the package's own are back afterwards."""
    own = features_module.boosted_features
    own_names = features_module.BOOSTED_FEATURES

    def extended(doc: Any) -> np.ndarray:
        return np.hstack([own(doc), make(doc).astype(np.float32)])

    modules = (boosted_module, training_module)
    for module in modules:
        module.boosted_features = extended  # type: ignore[attr-defined]
        module.BOOSTED_FEATURES = (*own_names, *names)  # type: ignore[attr-defined]
    try:
        yield
    finally:
        for module in modules:
            module.boosted_features = own  # type: ignore[attr-defined]
            module.BOOSTED_FEATURES = own_names  # type: ignore[attr-defined]


def cross_validate(args: argparse.Namespace, out: Path) -> dict[str, float]:
    """Token F1 per training set, each page scored by a model that never saw its site
    (``benchmarks.grouped_cv``'s run, with the features of the run); with ``--unseen``,
    also a model trained on every page, in ``out / "all"``."""
    cache = out / "corpus"
    argv = ["--data", str(args.data), "--out", str(out), "--cache", str(cache)]
    argv += ["--model", "boosted", "--folds", str(args.folds), "--threads", str(args.threads)]
    seed = getattr(args, "seed", 0)  # (LightGBM's: a refit's noise is measured by seeds)
    page_types = getattr(args, "page_types", "article")
    argv += ["--seed", str(seed), "--page-types", page_types]
    grouped_cv.main(argv)
    results = json.loads((out / "boosted" / "results.json").read_text(encoding="utf-8"))
    if args.unseen:
        sets = [args.data / name for name in SHIPPED_TRAINING_SETS]
        with forked_corpus_workers():
            corpus = build_boosted_corpus(
                sets,
                cache=cache,
                log=log,
                page_types=grouped_cv.page_type_list(page_types),
                processes=args.threads,
            )
        cfg = BoostedConfig(seed=seed, threads=args.threads)
        export_boosted(train_boosted(corpus, cfg, log=log), out / "all", cfg, {})
    return {name: result["f1"] for name, result in results.items()}


def unseen_scores(args: argparse.Namespace, out: Path) -> dict[str, float]:
    """Token F1 on the six sets no model trains on, of the model trained on all pages."""
    runner = chain_runner([{"boosted": {"model_dir": str(out / "all")}}], "boosted")
    scores = {}
    for name in EVALUATION_ONLY_SETS:
        result = evaluate_runner(open_dataset(args.data / name), runner, n_bootstrap=0)
        scores[name] = (result.shingles or result.snippets).f1
    return scores


def measure(args: argparse.Namespace, out: Path) -> dict[str, float]:
    """Cross-validated (and with ``args.unseen`` unseen) token F1 of ``boosted`` as the
    run trains and extracts it (an experiment patches what it tries around this call);
    written to ``out/results.json``."""
    scores = cross_validate(args, out)
    if args.unseen:
        unseen = unseen_scores(args, out)
        scores.update(unseen)
        scores["unseen mean"] = sum(unseen.values()) / len(unseen)
    out.mkdir(parents=True, exist_ok=True)
    (out / "results.json").write_text(json.dumps(scores, indent=1) + "\n", encoding="utf-8")
    return scores


# The corpus builder's own page job and parser (training_urls wraps them for a run)
_OWN_PAGE = training_module._page
_OWN_PARSE = training_module.parse_page
# The page being featurised by the corpus builder: its URL (see training_urls)
_TRAINING_URL: list[str | None] = [None]
# the training pages' URLs by (set, page id), for the run (forked workers inherit them)
_URLS: dict[tuple[str, str], str | None] = {}


def _page_with_url(args: tuple[Any, ...]) -> Any:
    _TRAINING_URL[0] = _URLS.get((args[0], args[1]))
    try:
        return _OWN_PAGE(args)
    finally:
        _TRAINING_URL[0] = None


def _parse_with_url(html: str) -> Any:
    doc = _OWN_PARSE(html)
    doc.url = _TRAINING_URL[0]
    return doc


@contextmanager
def training_urls(data: Path) -> Iterator[None]:
    """For the run: a training page's Document carries its URL, as a page being extracted
    does (the corpus builder's job is the set, the page id and the HTML, and the package's
    own columns read no URL; a column that does must see it in training too)."""
    _URLS.update(
        ((name, page.id), page.url)
        for name in SHIPPED_TRAINING_SETS
        if (data / name).is_dir()
        for page in open_dataset(data / name).iter_labels()
    )
    training_module._page = _page_with_url
    training_module.parse_page = _parse_with_url
    try:
        yield
    finally:
        training_module._page = _OWN_PAGE
        training_module.parse_page = _OWN_PARSE
        _URLS.clear()


def measure_with_columns(
    args: argparse.Namespace, names: list[str], make: Callable[[Any], np.ndarray], out: Path
) -> dict[str, float]:
    """:func:`measure` with the columns ``names`` made by ``make(doc)`` appended (the
    training pages' Documents with their URLs: :func:`training_urls`)."""
    with extra_columns(names, make), training_urls(args.data):
        return measure(args, out)


def experiment_parser(description: str, out: Path) -> argparse.ArgumentParser:
    """The command line every ``boosted`` experiment script shares: ``--data``,
    ``--out`` (default ``out``), ``--unseen``, ``--folds``, ``--threads``, LightGBM's
    ``--seed`` (a refit's noise is measured by seeds) and ``--page-types``."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--data", type=Path, default=DATA)
    parser.add_argument("--out", type=Path, default=out)
    parser.add_argument("--unseen", action="store_true", help="also score the six unseen sets")
    parser.add_argument("--folds", type=int, default=4)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--seed", type=int, default=0, help="LightGBM's seed")
    parser.add_argument(
        "--page-types",
        default="article",
        help="WCXB page types to train on (comma-separated; '' for all), as grouped_cv's",
    )
    return parser


def column_experiment(
    argv: list[str] | None,
    description: str,
    out: Path,
    names: list[str],
    make: Callable[[Any], np.ndarray],
    heading: str,
) -> int:
    """The main of a script that tries columns ``names`` made by ``make(doc)``:
    :func:`measure_with_columns`, or with ``--time`` only :func:`column_cost`, or with
    ``--baseline`` the same harness without the columns (in ``out/baseline``: the figure
    to compare with, measured on the same machine)."""
    parser = experiment_parser(description, out)
    parser.add_argument("--time", action="store_true", help="only time the columns")
    parser.add_argument("--baseline", action="store_true", help="the harness without them")
    args = parser.parse_args(argv)
    if args.time:
        for name, ms in column_cost(args, make).items():
            print(f"{name}: {ms:.2f} (median per wcxb-dev page, best of 3)")
        return 0
    if args.baseline:
        scores = measure(args, args.out / "baseline")
        print_scores("boosted (the harness, no extra columns)", scores)
        return 0
    print_scores(heading, measure_with_columns(args, names, make, args.out))
    return 0


def print_scores(heading: str, scores: dict[str, float]) -> None:
    print(f"{heading}\n")
    print("| set | token F1 |\n|---|---:|")
    for name, f1 in scores.items():
        print(f"| {name} | {f1:.4f} |")


def column_cost(args: argparse.Namespace, make: Callable[[Any], np.ndarray]) -> dict[str, float]:
    """Median ms per wcxb-dev page (each page's best of 3) of ``boosted``'s own features
    and of the variant's columns, side by side on the same parsed pages."""
    from scrapy_boilerplate.parse import parse_html

    own_ms: list[float] = []
    extra_ms: list[float] = []
    for page in open_dataset(args.data / "wcxb-dev").iter_pages():
        doc = parse_html(page.html, page.url)
        if not doc.blocks:
            continue
        best = [float("inf"), float("inf")]
        for _ in range(3):
            t0 = time.perf_counter()
            features_module.boosted_features(doc)
            t1 = time.perf_counter()
            make(doc)
            t2 = time.perf_counter()
            best = [min(best[0], t1 - t0), min(best[1], t2 - t1)]
        own_ms.append(best[0] * 1000)
        extra_ms.append(best[1] * 1000)
    return {
        "own features ms": statistics.median(own_ms),
        "extra columns ms": statistics.median(extra_ms),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", type=Path, default=DATA)
    parser.add_argument("--out", type=Path, default=OUT)
    parser.add_argument(
        "--table",
        type=Path,
        help="directory with lm_fast's distilled table (train --model lm_fast "
        "--cache DIR keeps them in DIR/lm_fast_table); not needed for --variant bow",
    )
    parser.add_argument("--variant", choices=VARIANTS, default="sim")
    parser.add_argument("--unseen", action="store_true", help="also score the six unseen sets")
    parser.add_argument(
        "--time", action="store_true", help="only time the columns beside the own features"
    )
    parser.add_argument("--folds", type=int, default=4)
    parser.add_argument("--threads", type=int, default=2)
    args = parser.parse_args(argv)
    if args.variant != "bow" and args.table is None:
        parser.error("--table is needed for the static-vector variants")
    out = args.out / args.variant
    names, make = text_columns(args.variant, args.table)
    if args.time:
        for name, ms in column_cost(args, make).items():
            print(f"{name}: {ms:.2f} (median per wcxb-dev page, best of 3)")
        return 0
    scores = measure_with_columns(args, names, make, out)
    print_scores(f"boosted + {args.variant} columns ({', '.join(names)})", scores)
    return 0


if __name__ == "__main__":
    sys.exit(main())
