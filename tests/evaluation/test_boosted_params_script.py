"""``benchmarks.boosted_params``: the default labeler's trees trained with other LightGBM
parameters or block weights (an experiment on its training)."""

from __future__ import annotations

import numpy as np
import pytest

lightgbm = pytest.importorskip("lightgbm")  # the [train] extra


def test_word_weights_keep_the_shipped_total(script):
    words = np.array([1, 4, 100])
    weights = script.word_weights(words, 0.5)
    assert weights.sum() == pytest.approx(np.log1p(words).sum())
    # proportional to the square root of the words
    assert weights[1] / weights[0] == pytest.approx(2.0)
    assert weights[2] / weights[1] == pytest.approx(5.0)


def test_the_classifier_fits_with_the_added_parameters_then_as_before(script):
    rng = np.random.default_rng(0)
    x, y = rng.random((60, 3)), np.tile([0, 1], 30)
    own_fit = lightgbm.LGBMClassifier.fit
    with script.trained_with({"path_smooth": 10.0}):
        model = lightgbm.LGBMClassifier(n_estimators=2, verbose=-1).fit(x, y)
        assert model.get_params()["path_smooth"] == 10.0
    assert lightgbm.LGBMClassifier.fit is own_fit
    plain = lightgbm.LGBMClassifier(n_estimators=2, verbose=-1).fit(x, y)
    assert "path_smooth" not in plain.get_params()


def test_the_block_weights_are_patched_only_with_a_power_and_restored(script):
    from scrapy_boilerplate.training import boosted as training
    from scrapy_boilerplate.training.boosted import BoostedCorpus

    own = training.block_weights
    with script.trained_with({}):
        assert training.block_weights is own
    corpus = BoostedCorpus(
        features=np.zeros((2, 1), np.float32),
        labels=np.ones(2, np.int8),
        words=np.array([1, 9]),
        offsets=np.array([0, 2]),
        datasets=["a"],
        page_ids=["p0"],
    )
    with script.trained_with({}, word_power=1.0):
        weights = training.block_weights(corpus, np.arange(2), 0.0)
    assert training.block_weights is own
    assert weights[1] / weights[0] == pytest.approx(9.0)


def test_each_change_and_seed_has_its_own_folder(script):
    names = {
        script.run_name({"path_smooth": 10}, None, 0),
        script.run_name({"path_smooth": 10}, None, 1),
        script.run_name({}, 0.5, 0),
        script.run_name({}, None, 0),
    }
    assert len(names) == 4
    assert script.run_name({"a": 1, "b": 2}, None, 0) == script.run_name({"b": 2, "a": 1}, None, 0)


def test_dropped_columns_are_named_by_prefix(script):
    from scrapy_boilerplate.neural.boosted_features import BOOSTED_FEATURES

    edges = script.dropped_columns(["prev_edge_", "next_edge_"])
    assert len(edges) > 0
    assert all(BOOSTED_FEATURES[i].startswith(("prev_edge_", "next_edge_")) for i in edges)
    assert len(script.dropped_columns([])) == 0 and len(script.dropped_columns([""])) == 0
    assert script.run_name({}, None, 0, ["win"]) != script.run_name({}, None, 0)


def test_dropped_columns_are_zero_in_the_training_corpus_of_the_run(script):
    from benchmarks import grouped_cv
    from scrapy_boilerplate.neural.boosted_features import BOOSTED_FEATURES
    from scrapy_boilerplate.training.boosted import BoostedCorpus

    width = len(BOOSTED_FEATURES)
    corpus = BoostedCorpus(
        features=np.ones((3, width), np.float32),
        labels=np.ones(3, np.int8),
        words=np.full(3, 10),
        offsets=np.array([0, 3]),
        datasets=["a"],
        page_ids=["p0"],
    )
    own = grouped_cv.build_boosted_corpus
    grouped_cv.build_boosted_corpus = lambda *a, **k: corpus
    try:
        with script.trained_with({}, drop=["win"]):
            built = grouped_cv.build_boosted_corpus()
    finally:
        grouped_cv.build_boosted_corpus = own
    dropped = script.dropped_columns(["win"])
    assert (built.features[:, dropped] == 0).all()
    kept = np.setdiff1d(np.arange(width), dropped)
    assert (built.features[:, kept] == 1).all()
