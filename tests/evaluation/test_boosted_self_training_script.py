"""``benchmarks.boosted_self_training``: the snippet set's unlabelled blocks labelled by
the trees' own sure decisions, or by the snippets around them (an experiment on the
default labeler's training)."""

from __future__ import annotations

import numpy as np
import pytest

from scrapy_boilerplate.training.boosted import BoostedConfig

from ..helpers import boosted_corpus as corpus_of


def test_pseudo_labels_are_only_the_sure_decisions(script):
    labels = script.pseudo_labels(np.array([0.95, 0.9, 0.5, 0.1, 0.02]), 0.9, 0.1)
    assert labels.tolist() == [1, 1, -1, 0, 0]


def test_only_unlabelled_blocks_the_trees_decide_of_snippet_pages_are_candidates(script):
    corpus = corpus_of(
        [
            # a snippet page: a labelled block, an unlabelled long one, an unlabelled short one
            ("trafilatura-eval", [1, -1, -1], [20, 20, 3], [0.0, 0.0, 0.0]),
            # a page with a full reference: its one unlabelled block is not a candidate
            ("wcxb-dev", [1, -1], [20, 20], [0.0, 0.0]),
        ]
    )
    rows = script.unlabelled_rows(corpus, [0, 1], BoostedConfig(), script.SNIPPET_SETS)
    assert rows.tolist() == [1]
    # the held-out pages of a fold are never read
    assert script.unlabelled_rows(corpus, [1], BoostedConfig(), script.SNIPPET_SETS).size == 0


def test_anchored_labels_are_the_text_like_blocks_between_two_snippets(script):
    corpus = corpus_of(
        [
            (
                "trafilatura-eval",
                # before, snippet, paragraph, linked list, short line, paragraph, snippet, after
                [-1, 1, -1, -1, -1, -1, 1, -1],
                [30, 20, 25, 12, 6, 40, 20, 30],
                [0.0, 0.0, 0.0, 0.9, 0.0, 0.1, 0.0, 0.0],
            ),
            # one snippet only: nothing lies between
            ("trafilatura-eval", [-1, 1, -1], [30, 20, 30], [0.0, 0.0, 0.0]),
        ]
    )
    rows = script.between_content(corpus, [0, 1], script.SNIPPET_SETS)
    assert rows.tolist() == [2, 5]


def test_the_run_patches_the_training_and_restores_it(script):
    from benchmarks import boosted_static, grouped_cv
    from scrapy_boilerplate.training import boosted as training

    own_train, own_weights = training.train_boosted, training.block_weights
    with script.self_training(0.9, 0.1, 0.5):
        assert grouped_cv.train_boosted is not own_train
        assert boosted_static.train_boosted is grouped_cv.train_boosted
        assert training.block_weights is not own_weights
    assert grouped_cv.train_boosted is own_train
    assert boosted_static.train_boosted is own_train
    assert training.block_weights is own_weights


class SureAbove:
    """Trees whose content probability is a page's column 0."""

    def predict_proba(self, features: np.ndarray) -> np.ndarray:
        return np.column_stack([1 - features[:, 0], features[:, 0]])


@pytest.fixture
def fits(monkeypatch):
    """Each fit's labels and the weights of its labelled rows; the first fit of a page
    gives :class:`SureAbove`, the second the string "trees"."""
    from scrapy_boilerplate.training import boosted as training

    seen: list[tuple[list[int], list[float]]] = []

    def fit(corpus, cfg, pages, log):
        keep = np.flatnonzero(corpus.labels >= 0)
        seen.append((corpus.labels.tolist(), training.block_weights(corpus, keep, 0.0).tolist()))
        return SureAbove() if len(seen) == 1 else "trees"

    monkeypatch.setattr(training, "train_boosted", fit)
    return seen


def test_self_training_refits_with_the_sure_blocks_at_their_weight(script, fits):
    from benchmarks import grouped_cv

    corpus = corpus_of([("trafilatura-eval", [1, -1, -1, -1], [30] * 4, [0.0] * 4)])
    corpus.features[:, 0] = [0.5, 0.95, 0.5, 0.05]
    with script.self_training(0.9, 0.1, 0.5):
        assert grouped_cv.train_boosted(corpus, BoostedConfig(), [0], None) == "trees"
    w = float(np.log1p(30))
    first, second = fits
    assert first == ([1, -1, -1, -1], [pytest.approx(w)])
    # the sure content and boilerplate blocks join at half weight; the doubtful one does not
    assert second[0] == [1, 1, -1, 0]
    assert second[1] == pytest.approx([w, w / 2, w / 2])
    assert corpus.labels.tolist() == [1, -1, -1, -1]  # the corpus itself is not relabelled


def test_anchored_training_fits_once_with_the_blocks_between_snippets(script, fits):
    from benchmarks import grouped_cv

    corpus = corpus_of([("trafilatura-eval", [1, -1, 1, -1], [30] * 4, [0.0] * 4)])
    with script.self_training(0.9, 0.1, 0.5, anchored=True):
        # (the stand-in's first fit gives SureAbove: one fit only, as anchored makes)
        assert isinstance(grouped_cv.train_boosted(corpus, BoostedConfig(), [0], None), SureAbove)
    w = float(np.log1p(30))
    ((labels, weights),) = fits
    assert labels == [1, 1, 1, -1]
    assert weights == pytest.approx([w, w / 2, w])


def test_anchored_training_with_a_floor_leaves_out_what_a_first_fit_doubts(script, fits):
    from benchmarks import grouped_cv

    # a paragraph and an inline promotion between two snippets
    corpus = corpus_of([("trafilatura-eval", [1, -1, -1, 1], [30] * 4, [0.0] * 4)])
    corpus.features[:, 0] = [0.9, 0.8, 0.1, 0.9]
    with script.self_training(0.9, 0.1, 0.5, anchored=True, floor=0.2):
        assert grouped_cv.train_boosted(corpus, BoostedConfig(), [0], None) == "trees"
    first, second = fits
    assert first[0] == [1, -1, -1, 1]
    assert second[0] == [1, 1, -1, 1]


def test_outside_the_story_are_the_unlabelled_blocks_before_and_after_its_snippets(script):
    corpus = corpus_of(
        [
            (
                "trafilatura-eval",
                # menu, snippet, paragraph, snippet, short line, footer
                [-1, 1, -1, 1, -1, -1],
                [20, 20, 25, 20, 3, 20],
                [0.9, 0.0, 0.0, 0.0, 0.0, 0.5],
            ),
        ]
    )
    rows = script.outside_story(corpus, [0], BoostedConfig(), script.SNIPPET_SETS)
    assert rows.tolist() == [0, 5]  # the short line is left to its neighbours


def test_anchored_training_can_label_the_sure_boilerplate_outside_the_story(script, fits):
    from benchmarks import grouped_cv

    corpus = corpus_of([("trafilatura-eval", [-1, 1, -1, 1, -1], [30] * 5, [0.0] * 5)])
    corpus.features[:, 0] = [0.05, 0.9, 0.8, 0.9, 0.5]
    with script.self_training(0.9, 0.1, 0.5, anchored=True, outside=0.1):
        assert grouped_cv.train_boosted(corpus, BoostedConfig(), [0], None) == "trees"
    first, second = fits
    assert second[0] == [0, 1, 1, 1, -1]


def test_propagated_labels_follow_the_snippets_along_the_page(script):
    corpus = corpus_of(
        [
            (
                "trafilatura-eval",
                # text, must, text, must, text, must-not, text, text
                [-1, 1, -1, 1, -1, 0, -1, -1],
                [30] * 8,
                [0.0] * 8,
            ),
        ]
    )
    labels = script.propagated(corpus, [0], script.SNIPPET_SETS)
    # before the first snippet: unknown (a must block's side is not the page's edge);
    # between two musts: content; between a must and a must-not: unknown; after the
    # must-not to the page's end: boilerplate
    assert labels.tolist() == [-1, -1, 1, -1, -1, -1, 0, 0]


def test_propagated_training_fits_once_with_both_labels(script, fits):
    from benchmarks import grouped_cv

    corpus = corpus_of([("trafilatura-eval", [1, -1, 1, 0, -1], [30] * 5, [0.0] * 5)])
    with script.self_training(0.9, 0.1, 0.5, anchored=True, propagate=True):
        grouped_cv.train_boosted(corpus, BoostedConfig(), [0], None)
    ((labels, _),) = fits
    assert labels == [1, 1, 1, 0, 0]
