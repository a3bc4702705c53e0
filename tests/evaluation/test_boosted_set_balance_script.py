"""``benchmarks.boosted_set_balance``: the training sets' weights moved toward equal
totals (an experiment on the default labeler's training)."""

from __future__ import annotations

import numpy as np
import pytest

WEIGHTS = np.array([1.0, 1.0, 1.0, 1.0, 2.0])
SETS = np.array(["wcxb", "wcxb", "wcxb", "wcxb", "zh"])


def test_balance_zero_keeps_the_weights(script):
    assert script.set_balanced(WEIGHTS, SETS, 0.0) is WEIGHTS


def test_balance_one_gives_every_set_the_same_total(script):
    balanced = script.set_balanced(WEIGHTS, SETS, 1.0)
    assert balanced[:4].sum() == pytest.approx(balanced[4])
    assert balanced.sum() == pytest.approx(WEIGHTS.sum())
    # within a set the weights keep their proportions
    assert np.ptp(balanced[:4]) == 0


def test_half_balance_lies_between(script):
    half = script.set_balanced(WEIGHTS, SETS, 0.5)
    assert 2.0 < half[4] < script.set_balanced(WEIGHTS, SETS, 1.0)[4]
    assert half.sum() == pytest.approx(WEIGHTS.sum())


def test_the_run_patches_the_training_weights_and_restores_them(script):
    from scrapy_boilerplate.training import boosted as training

    own = training.block_weights
    with script.balanced_sets(1.0):
        assert training.block_weights is not own
    assert training.block_weights is own


def test_each_row_is_weighted_by_the_set_of_its_page(script):
    from scrapy_boilerplate.training import boosted as training
    from scrapy_boilerplate.training.boosted import BoostedCorpus

    # pages 0 and 1 of set "a" (rows 0-2), page 2 of set "b" (row 3); words e - 1 make
    # every log(1 + words) weight 1
    corpus = BoostedCorpus(
        features=np.zeros((4, 1), np.float32),
        labels=np.ones(4, np.int8),
        words=np.full(4, np.e - 1),
        offsets=np.array([0, 2, 3, 4]),
        datasets=["a", "a", "b"],
        page_ids=["p0", "p1", "p2"],
    )
    keep = np.arange(4)
    with script.balanced_sets(1.0):
        weights = training.block_weights(corpus, keep, 0.0)
    np.testing.assert_allclose(weights, [2 / 3, 2 / 3, 2 / 3, 2.0])
