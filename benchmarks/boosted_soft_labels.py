#!/usr/bin/env python
"""Do the default labeler's trees gain from soft labels, each block's label blended with
how surely trees that never saw its page label it?

    python -m benchmarks.boosted_soft_labels [--alpha A] [--inner K] [--unseen] [--seed N]

The automatic labels are hard: a block is in the reference or not. Some blocks are
learnable from their columns and some are not (a reference that keeps one of two
identical "Related" boxes, a byline one site's annotator kept and another's dropped);
refits differ most on those, which is the seed-to-seed noise the choices fight (0.002 on
the unseen mean). Here each fit first trains ``K`` trees on ``K - 1`` contiguous parts
of its training rows (the corpus is in page order, so a part holds whole pages but for
its edges) and predicts the part left out; the fit then learns from the soft target
``alpha * label + (1 - alpha) * out-of-part probability`` (as two weighted rows per
block, one of each class: the same log loss, LightGBM's classifier and the export as
they are). The shipped configuration otherwise. The fit takes ``K + 1`` times as long;
extraction costs the same.

Scored with ``benchmarks.boosted_static``'s harness (compare with ``python -m
benchmarks.boosted_layout --baseline --unseen --seed N``). An experiment, not in the
package; output in ``benchmarks/out/boosted_soft_labels/``; needs the ``[train]`` extra.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import numpy as np

from benchmarks.boosted_static import experiment_parser, measure, print_scores
from benchmarks.grouped_cv import ROOT

OUT = ROOT / "benchmarks" / "out" / "boosted_soft_labels"


def out_of_part_probability(
    model: Any, x: np.ndarray, y: np.ndarray, w: np.ndarray, k: int, fit: Any
) -> np.ndarray:
    """Each row's content probability from a copy of ``model`` fitted on the other
    ``k - 1`` contiguous parts of the rows."""
    from sklearn.base import clone

    p = np.empty(len(y), dtype=np.float64)
    edges = np.linspace(0, len(y), k + 1).astype(np.int64)
    for start, end in zip(edges[:-1], edges[1:], strict=True):
        inside = np.ones(len(y), dtype=bool)
        inside[start:end] = False
        teacher = clone(model)
        fit(teacher, x[inside], y[inside], sample_weight=w[inside])
        p[start:end] = teacher.predict_proba(x[start:end])[:, 1]
    return p


def soft_rows(
    x: np.ndarray, y: np.ndarray, w: np.ndarray, p: np.ndarray, alpha: float
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Two rows per block, one of each class, weighted so that their log loss is the soft
    target's ``alpha * y + (1 - alpha) * p``."""
    soft = alpha * y + (1.0 - alpha) * p
    x2 = np.concatenate([x, x])
    y2 = np.concatenate([np.ones(len(y), dtype=y.dtype), np.zeros(len(y), dtype=y.dtype)])
    w2 = np.concatenate([w * soft, w * (1.0 - soft)])
    return x2, y2, w2


@contextmanager
def soft_labels(alpha: float, inner: int) -> Iterator[None]:
    """For the run: every fit of LightGBM's classifier learns the soft targets."""
    import lightgbm

    own_fit = lightgbm.LGBMClassifier.fit

    def fit(self: Any, x: Any, y: Any, sample_weight: Any = None, **kwargs: Any) -> Any:
        y = np.asarray(y)
        w = np.ones(len(y)) if sample_weight is None else np.asarray(sample_weight, float)
        p = out_of_part_probability(self, x, y, w, inner, own_fit)
        x2, y2, w2 = soft_rows(x, y, w, p, alpha)
        return own_fit(self, x2, y2, sample_weight=w2, **kwargs)

    lightgbm.LGBMClassifier.fit = fit  # type: ignore[method-assign]
    try:
        yield
    finally:
        lightgbm.LGBMClassifier.fit = own_fit  # type: ignore[method-assign]


def main(argv: list[str] | None = None) -> int:
    parser = experiment_parser(__doc__.split("\n\n")[0], OUT)
    parser.add_argument("--alpha", type=float, default=0.5, help="the hard label's share")
    parser.add_argument("--inner", type=int, default=3, help="parts of the training rows")
    args = parser.parse_args(argv)
    with soft_labels(args.alpha, args.inner):
        scores = measure(args, args.out / f"alpha{args.alpha}-inner{args.inner}-seed{args.seed}")
    print_scores(f"boosted, soft labels (alpha {args.alpha}, {args.inner} parts)", scores)
    return 0


if __name__ == "__main__":
    sys.exit(main())
