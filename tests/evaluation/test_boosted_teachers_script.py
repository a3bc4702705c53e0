"""``benchmarks.boosted_teachers``: the snippet set's unlabelled blocks labelled where other
libraries' extractions agree (an experiment on the default labeler's training)."""

from __future__ import annotations

import numpy as np
import pytest

from scrapy_boilerplate.training.boosted import BoostedConfig

from ..helpers import boosted_corpus

PAGE = (
    "<html><body><ul><li>Home</li><li>World</li></ul>"
    "<p>The first paragraph of the story, long enough to be text.</p>"
    "<p>The second paragraph of the story, as long as the first.</p>"
    "<div>Share this story with your friends</div></body></html>"
)


def test_a_teacher_labels_the_blocks_its_text_keeps_and_one_that_fails_keeps_nothing():
    from benchmarks.boosted_teachers import teacher_block_labels

    def story_only(html, url, lang):
        return (
            "The first paragraph of the story, long enough to be text.\n\n"
            "The second paragraph of the story, as long as the first."
        )

    def broken(html, url, lang):
        raise ValueError("a library failing on a page")

    labels = teacher_block_labels(PAGE, None, None, [story_only, broken])
    assert labels.tolist() == [[0, 0, 1, 1, 0], [0, 0, 0, 0, 0]]


def test_only_unlabelled_blocks_of_the_given_pages_where_every_teacher_agrees(script):
    corpus = boosted_corpus(
        [
            # a snippet page: a snippet's label, then blocks the teachers agree and differ on
            ("trafilatura-eval", [1, -1, -1, -1], [20] * 4, [0.0] * 4),
            # another page, held out of the fit
            ("trafilatura-eval", [-1, -1], [20] * 2, [0.0] * 2),
        ]
    )
    by_page = {
        ("trafilatura-eval", "0"): np.array([[0, 1, 0, 1], [0, 1, 0, 0]], np.int8),
        ("trafilatura-eval", "1"): np.array([[1, 1], [1, 1]], np.int8),
    }
    rows, labels = script.agreed_labels(corpus, [0], by_page)
    # the snippet's own label stands (block 0); block 3, where the teachers differ, none
    assert rows.tolist() == [1, 2]
    assert labels.tolist() == [1, 0]


def test_a_page_whose_blocks_the_teachers_did_not_see_is_left_alone(script):
    corpus = boosted_corpus([("trafilatura-eval", [-1, -1, -1], [20] * 3, [0.0] * 3)])
    by_page = {("trafilatura-eval", "0"): np.array([[1, 1]], np.int8)}  # another parse
    rows, labels = script.agreed_labels(corpus, [0], by_page)
    assert rows.size == labels.size == 0


def test_the_fit_learns_the_agreed_labels_at_their_weight(script, monkeypatch):
    from benchmarks import grouped_cv
    from scrapy_boilerplate.training import boosted as training

    own = grouped_cv.train_boosted
    seen = []

    def fit(corpus, cfg, pages, log):
        keep = np.flatnonzero(corpus.labels >= 0)
        seen.append((corpus.labels.tolist(), training.block_weights(corpus, keep, 0.0).tolist()))
        return "trees"

    monkeypatch.setattr(training, "train_boosted", fit)
    corpus = boosted_corpus([("trafilatura-eval", [1, -1, -1], [30] * 3, [0.0] * 3)])
    by_page = {("trafilatura-eval", "0"): np.array([[1, 1, 0], [1, 1, 0]], np.int8)}
    with script.taught(by_page, 0.25):
        assert grouped_cv.train_boosted(corpus, BoostedConfig(), [0], None) == "trees"
    assert grouped_cv.train_boosted is own  # restored
    w = float(np.log1p(30))
    ((labels, weights),) = seen
    assert labels == [1, 1, 0]
    assert weights == pytest.approx([w, w / 4, w / 4])
    assert corpus.labels.tolist() == [1, -1, -1]  # the corpus itself is not relabelled
