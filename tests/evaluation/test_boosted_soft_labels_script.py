"""``benchmarks.boosted_soft_labels``: the trees trained on labels blended with how surely
trees that never saw the block label it."""

from __future__ import annotations

import numpy as np
import pytest


def test_two_weighted_rows_per_block_carry_the_soft_target(script):
    x = np.array([[1.0], [2.0]])
    y = np.array([1, 0])
    w = np.array([2.0, 1.0])
    x2, y2, w2 = script.soft_rows(x, y, w, p=np.array([0.2, 0.6]), alpha=0.5)
    assert x2.tolist() == [[1.0], [2.0], [1.0], [2.0]]
    assert y2.tolist() == [1, 1, 0, 0]
    np.testing.assert_allclose(w2, [2 * 0.6, 1 * 0.3, 2 * 0.4, 1 * 0.7])


def test_each_part_is_predicted_by_trees_fitted_on_the_other_parts(script):
    lightgbm = pytest.importorskip("lightgbm")
    rng = np.random.default_rng(0)
    x = rng.normal(size=(90, 3))
    y = (x[:, 0] > 0).astype(np.int64)
    seen = []

    def fit(model, xs, ys, sample_weight=None):
        seen.append({tuple(row) for row in xs})
        return lightgbm.LGBMClassifier.fit(model, xs, ys, sample_weight=sample_weight)

    model = lightgbm.LGBMClassifier(n_estimators=5, min_child_samples=5, verbose=-1)
    p = script.out_of_part_probability(model, x, y, np.ones(90), 3, fit)
    assert len(seen) == 3 and p.shape == (90,) and ((p > 0) & (p < 1)).all()
    for part, rows in enumerate(seen):
        held_out = {tuple(row) for row in x[part * 30 : (part + 1) * 30]}
        assert len(rows) == 60 and not rows & held_out
    assert np.corrcoef(p, y)[0, 1] > 0.5  # trees that never saw a row still read it
