"""``benchmarks.boosted_second_stage``: a second model over the trees' probabilities
along the page (an experiment on the default labeler)."""

from __future__ import annotations

import numpy as np
import pytest


def columns(script, probability, words=None, link=None):
    n = len(probability)
    return script.context_columns(
        np.asarray(probability, np.float32),
        np.asarray(words if words is not None else [9] * n),
        np.asarray(link if link is not None else [0.0] * n),
    )


def column(script, name: str) -> int:
    """The index of a named column (the order of context_columns)."""
    names = ["p", "log_words", "link"] + [f"n{k}" for k in script.NEIGHBOURS]
    for size in script.WINDOWS:
        names += [f"mean{size}", f"wmean{size}", f"max{size}"]
    names += ["page_max", "page_mean", "page_content", "sure_before", "sure_after"]
    names += ["content_before", "content_after"]
    return names.index(name)


def test_one_row_per_block_and_finite_on_any_page(script):
    for n in (0, 1, 2, 7, 60):
        cols = columns(script, np.linspace(0, 1, n))
        assert cols.shape == (n, script.WIDTH)
        assert np.isfinite(cols).all()
    assert columns(script, [0.5, 0.2]).shape[1] == column(script, "content_after") + 1


def test_neighbours_are_the_blocks_either_side_and_minus_one_past_the_page(script):
    cols = columns(script, [0.1, 0.2, 0.3])
    assert cols[:, column(script, "n-1")].tolist() == pytest.approx([-1.0, 0.1, 0.2])
    assert cols[:, column(script, "n1")].tolist() == pytest.approx([0.2, 0.3, -1.0])
    assert cols[:, column(script, "n3")].tolist() == [-1.0, -1.0, -1.0]


def test_windows_see_the_blocks_around(script):
    p = [0.0, 0.0, 0.9, 0.0, 0.0, 0.0, 0.0, 0.0]
    cols = columns(script, p)
    assert cols[:, column(script, "max2")].tolist() == pytest.approx(
        [0.9, 0.9, 0.9, 0.9, 0.9, 0.0, 0.0, 0.0]
    )
    assert cols[0, column(script, "mean2")] == pytest.approx(0.3)  # blocks 0-2


def test_distances_to_the_nearest_sure_block_are_capped(script):
    p = [0.1] * 30
    p[10] = 0.9
    cols = columns(script, p)
    before, after = column(script, "sure_before"), column(script, "sure_after")
    assert cols[12, before] == 2 and cols[12, after] == script.FAR
    assert cols[4, after] == 6 and cols[4, before] == script.FAR
    assert cols[10, before] == 0 and cols[10, after] == 0
    assert (columns(script, [0.1, 0.2])[:, before] == script.FAR).all()


def test_the_content_words_before_and_after_a_block(script):
    # equal words: content blocks 0 and 3 of 4
    cols = columns(script, [0.9, 0.1, 0.1, 0.9])
    assert cols[:, column(script, "content_before")].tolist() == pytest.approx(
        [0.0, 0.25, 0.25, 0.25]
    )
    assert cols[:, column(script, "content_after")].tolist() == pytest.approx(
        [0.25, 0.25, 0.25, 0.0]
    )
    assert cols[0, column(script, "page_content")] == pytest.approx(0.5)


class TheTreesAgain:
    """A second stage that gives back the trees' own probability (column 0)."""

    def predict_proba(self, cols: np.ndarray) -> np.ndarray:
        return np.column_stack([1 - cols[:, 0], cols[:, 0]])


class Nothing:
    """A second stage that calls every block boilerplate."""

    def predict_proba(self, cols: np.ndarray) -> np.ndarray:
        return np.column_stack([np.ones(len(cols)), np.zeros(len(cols))])


def test_the_second_stage_decides_in_place_of_the_trees(script):
    from scrapy_boilerplate.extraction import Extractor, get_extractor
    from scrapy_boilerplate.neural.boosted import DominantBlock
    from scrapy_boilerplate.neural.filter import labeler_chain
    from tests.helpers import bridge_story

    html = bridge_story()

    def text_with(stage) -> str:
        labeler = script.SecondStageLabeler(None, stage)
        chain = labeler_chain(labeler, "boosted", True, None, True, True, DominantBlock(labeler))
        return Extractor(chain, "boosted").extract(html).text

    shipped = get_extractor("boosted").extract(html).text
    assert shipped
    assert text_with(TheTreesAgain()) == shipped
    assert text_with(Nothing()) != shipped
