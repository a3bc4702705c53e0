#!/usr/bin/env python
"""The default labeler's trees trained otherwise: LightGBM parameters, block weights.

    python -m benchmarks.boosted_params --lgbm '{"path_smooth": 10}' --seed 0
    python -m benchmarks.boosted_params --lgbm '{"boosting_type": "dart", "drop_rate": 0.1}'
    python -m benchmarks.boosted_params --word-power 0.5 --seed 1
    python -m benchmarks.boosted_params --drop anc_class_,prev_edge_,next_edge_

``benchmarks.grouped_cv --model boosted`` (folds by site on the four training sets, each
held-out page extracted by the shipped chain with its fold's model) with the trees'
training changed for the run: ``--lgbm`` adds LightGBM parameters that
``BoostedConfig`` does not name (set on the classifier before it fits), ``--word-power``
weights each block by ``words ** power`` instead of ``log(1 + words)`` (scaled to the same
total), ``--drop`` trains without the columns whose names start with any of the given
prefixes (held at 0 in the training rows: the trees never split on them, so the
held-out pages' real values go unread; an ablation). Compare with ``grouped_cv``'s own
run of the same ``--seed``. An experiment, not
in the package; the fold models and ``results.json`` go to
``benchmarks/out/boosted_params/<name>/``; needs the ``[train]`` extra.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import numpy as np

from benchmarks import grouped_cv
from scrapy_boilerplate.neural.boosted_features import BOOSTED_FEATURES
from scrapy_boilerplate.training import boosted as training_module
from scrapy_boilerplate.training.boosted import BoostedCorpus

OUT = grouped_cv.ROOT / "benchmarks" / "out" / "boosted_params"


def word_weights(words: np.ndarray, power: float) -> np.ndarray:
    """``words ** power``, scaled to the total of the shipped ``log(1 + words)``."""
    words = words.astype(np.float64)
    weights = words**power
    total = weights.sum()
    return weights * (np.log1p(words).sum() / total) if total > 0 else weights


def dropped_columns(prefixes: Sequence[str]) -> np.ndarray:
    """The indices of the features whose names start with any of ``prefixes``."""
    wanted = tuple(p for p in prefixes if p)
    return np.array(
        [i for i, name in enumerate(BOOSTED_FEATURES) if wanted and name.startswith(wanted)],
        dtype=np.int64,
    )


@contextmanager
def trained_with(
    lgbm: dict[str, Any], word_power: float | None = None, drop: Sequence[str] = ()
) -> Iterator[None]:
    """For the run: LightGBM's classifier fits with ``lgbm`` added to its parameters,
    (``word_power``) each block weighs ``words ** word_power``, and the training corpus
    holds the columns ``drop`` names (prefixes) at 0."""
    import lightgbm

    own_fit = lightgbm.LGBMClassifier.fit
    own_weights = training_module.block_weights
    own_build = grouped_cv.build_boosted_corpus
    columns = dropped_columns(drop)

    def build(*args: Any, **kwargs: Any) -> BoostedCorpus:
        corpus = own_build(*args, **kwargs)
        corpus.features[:, columns] = 0.0
        return corpus

    def fit(self: Any, *args: Any, **kwargs: Any) -> Any:
        self.set_params(**lgbm)
        return own_fit(self, *args, **kwargs)

    def weights(corpus: BoostedCorpus, keep: np.ndarray, page_balance: float) -> np.ndarray:
        return word_weights(corpus.words[keep], word_power)

    lightgbm.LGBMClassifier.fit = fit  # type: ignore[method-assign]
    if word_power is not None:
        training_module.block_weights = weights  # type: ignore[assignment]
    if len(columns):
        grouped_cv.build_boosted_corpus = build  # type: ignore[assignment]
    try:
        yield
    finally:
        lightgbm.LGBMClassifier.fit = own_fit  # type: ignore[method-assign]
        training_module.block_weights = own_weights  # type: ignore[assignment]
        grouped_cv.build_boosted_corpus = own_build  # type: ignore[assignment]


def run_name(
    lgbm: dict[str, Any], word_power: float | None, seed: int, drop: Sequence[str] = ()
) -> str:
    """The run's folder: the changes and the seed."""
    changes: dict[str, Any] = {"lgbm": lgbm, "word_power": word_power}
    if drop:
        changes["drop"] = sorted(drop)
    key = json.dumps(changes, sort_keys=True).encode()
    return f"{hashlib.sha256(key).hexdigest()[:10]}-seed{seed}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--lgbm", type=json.loads, default={}, help="LightGBM parameters (JSON)")
    parser.add_argument("--word-power", type=float, default=None)
    parser.add_argument("--drop", default="", help="column-name prefixes, comma-separated")
    parser.add_argument("--seed", type=int, default=0, help="LightGBM's seed")
    parser.add_argument("--out", type=Path, default=OUT)
    args, rest = parser.parse_known_args(argv)
    drop = [p for p in args.drop.split(",") if p]
    out = args.out / run_name(args.lgbm, args.word_power, args.seed, drop)
    print(
        f"boosted trained with {json.dumps(args.lgbm)}, word power {args.word_power}, "
        f"without {len(dropped_columns(drop))} columns ({', '.join(drop) or 'none'})"
    )
    with trained_with(args.lgbm, args.word_power, drop):
        return grouped_cv.main(
            ["--model", "boosted", "--seed", str(args.seed), "--out", str(out), *rest]
        )


if __name__ == "__main__":
    sys.exit(main())
