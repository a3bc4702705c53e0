"""``benchmarks.boosted_gru``: a whole-page GRU over the trees' columns, blended with the
trees (an experiment, not kept)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from scrapy_boilerplate.neural.boosted import BoostedLabeler
from scrapy_boilerplate.neural.boosted_features import BOOSTED_FEATURES
from scrapy_boilerplate.parse import parse_html
from scrapy_boilerplate.training.boosted import BoostedCorpus

from ..helpers import bridge_story

torch = pytest.importorskip("torch")


def tiny_corpus(pages: int = 6, blocks: int = 12) -> BoostedCorpus:
    """Pages whose content blocks are the ones with a high first column."""
    rng = np.random.default_rng(0)
    features = rng.normal(size=(pages * blocks, len(BOOSTED_FEATURES))).astype(np.float32)
    labels = (features[:, 0] > 0).astype(np.int8)
    labels[::5] = -1  # unknown: not trained on
    return BoostedCorpus(
        features=features,
        labels=labels,
        words=np.full(pages * blocks, 20, np.int32),
        offsets=np.arange(0, pages * blocks + 1, blocks, dtype=np.int64),
        datasets=["set"] * pages,
        page_ids=[str(p) for p in range(pages)],
        page_types=[""] * pages,
    )


def test_columns_are_standardised_and_clipped(script):
    values = np.array([[1.0, 100.0], [3.0, -100.0]], np.float32)
    out = script.standardised(values, np.array([2.0, 0.0]), np.array([1.0, 1.0]))
    assert out.tolist() == [[-1.0, script.CLIP], [1.0, -script.CLIP]]


def test_training_reads_only_labelled_blocks_the_trees_decide_weighted_by_words(script):
    corpus = tiny_corpus(pages=1, blocks=6)
    corpus.words[:] = [1, 30, 30, 30, 30, 30]  # the first block is short: a rule decides it
    corpus.labels[:] = [1, 1, -1, 0, 1, 0]
    trains, weight = script.training_targets(corpus, short_words=4)
    assert trains.tolist() == [False, True, False, True, True, True]
    assert weight[1] == pytest.approx(np.log1p(30))


def test_batches_hold_every_page_once_next_to_pages_of_similar_length(script):
    corpus = tiny_corpus(pages=4)
    corpus.offsets = np.array([0, 2, 50, 53, 100])  # lengths 2, 48, 3, 47
    batches = list(script.page_batches(corpus, [0, 1, 2, 3], np.random.default_rng(1), 2))
    assert sorted(map(sorted, batches)) == [[0, 2], [1, 3]]


def test_each_fold_reads_the_gru_trained_beside_its_trees(script):
    out = Path("/gru")
    assert script.gru_path_for(out, "/folds/fold2") == "/gru/fold2.pt"
    assert script.gru_path_for(out, None) == "/gru/all.pt"


def test_a_trained_gru_learns_the_tiny_corpus_and_blends_into_the_labeler(script, tmp_path):
    corpus = tiny_corpus()
    saved = script.train_gru(corpus, list(range(6)), short_words=4, epochs=40, dropout=0.0)
    torch.save(saved, tmp_path / "all.pt")
    path = str(tmp_path / "all.pt")
    probability = script.gru_probability(path, corpus.features[:12])
    known = corpus.labels[:12] >= 0
    assert ((probability > 0.5) == (corpus.labels[:12] == 1))[known].mean() >= 0.8

    shipped = parse_html(bridge_story())
    BoostedLabeler(discussions=False)(shipped)
    unblended = parse_html(bridge_story())
    script.GruBlended(None, path, 0.0)(unblended)
    assert [b.is_content for b in unblended.blocks] == [b.is_content for b in shipped.blocks]
    blended = parse_html(bridge_story())
    script.GruBlended(None, path, 0.5)(blended)  # runs on a real page's columns
    assert len(blended.blocks) == len(shipped.blocks)
