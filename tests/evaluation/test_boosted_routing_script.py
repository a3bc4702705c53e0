"""``benchmarks.boosted_routing``: each page routed to the article model or to a model for
every kind of page by a classifier of its kind (an experiment, not kept)."""

from __future__ import annotations

import numpy as np
import pytest

from scrapy_boilerplate.evaluation.evaluate import PageResult
from scrapy_boilerplate.evaluation.metrics import score_page

pytest.importorskip("lightgbm")  # the [train] extra

STORY = "<p>" + "The council met on Tuesday and agreed the new budget for schools. " * 4 + "</p>"


def cached(page_id: str, base_text: str, other_text: str, fold: int = 0) -> dict:
    """A page as the cache holds it: both models' results against the reference 'a b c d'."""

    def result(text: str) -> dict:
        return PageResult(page_id, 1.0, "plain", score_page("a b c d", text)).to_dict()

    return {
        "id": page_id,
        "fold": fold,
        "row": [0.0],
        "base": result(base_text),
        "other": result(other_text),
    }


def test_a_page_at_the_cut_or_above_takes_the_other_models_extraction(script):
    rows = [cached("1", "a b c d", "x y"), cached("2", "x y", "a b c d")]
    assert script.routed_f1(rows, np.array([0.2, 0.2]), 0.5) == pytest.approx(0.5)
    assert script.routed_f1(rows, np.array([0.2, 0.5]), 0.5) == pytest.approx(1.0)
    assert script.routed_f1(rows, np.array([0.9, 0.1]), 0.5) == pytest.approx(0.0)


def test_the_classifier_reads_page_level_columns_and_an_empty_page_is_zeros(script):
    declared = script.page_row(
        '<html><head><meta property="og:type" content="article"></head>'
        f"<body><article><h1>Budget</h1>{STORY}</article></body></html>",
        None,
    )
    assert declared.shape == (len(script.FEATURE_NAMES),)
    named = dict(zip(script.FEATURE_NAMES, declared, strict=True))
    assert named["page_declares_article"] == 1.0
    assert named["page_article_share"] > 0.9
    assert not script.page_row("", None).any()


def test_columns_are_left_out_by_prefix(script):
    kept = script.kept_columns("root_,page_declares_article")
    names = [script.FEATURE_NAMES[i] for i in kept]
    assert "page_log_h1" in names and "page_link_share" in names
    assert not [n for n in names if n.startswith("root_") or n == "page_declares_article"]
    assert script.kept_columns("") == list(range(len(script.FEATURE_NAMES)))


def test_a_pages_probability_comes_from_a_classifier_that_never_saw_its_fold(script, monkeypatch):
    # fold 1's training pages say the opposite of fold 0's: what a page of fold 0 is told
    # shows which folds trained its classifier
    rng = np.random.default_rng(0)
    x_train = rng.normal(size=(200, 1))
    fold_train = np.repeat([0, 1], 100)
    y_train = np.where(fold_train == 0, x_train[:, 0] > 0, x_train[:, 0] < 0).astype(int)
    seen = []
    train = script.train_router

    def recording(x, y, seed=0):
        seen.append(len(x))
        return train(x, y, seed)

    monkeypatch.setattr(script, "train_router", recording)
    rows = [{"row": [2.0], "fold": 0}, {"row": [2.0], "fold": 1}]
    p = script.cross_validated(rows, x_train, y_train, fold_train, folds=2)
    assert seen == [100, 100]
    assert p[0] < 0.5 < p[1]  # fold 0's page by fold 1's rule, fold 1's by fold 0's
