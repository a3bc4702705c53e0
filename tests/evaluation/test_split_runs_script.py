"""``benchmarks.split_runs``: the default labeler's runs cut where two consecutive blocks
meet only near the root of the collapsed DOM (an experiment, not kept)."""

from __future__ import annotations

import importlib

import numpy as np
import pytest

from scrapy_boilerplate.neural.boosted import content_runs
from scrapy_boilerplate.neural.structure import Structure
from scrapy_boilerplate.parse import parse_html

from ..helpers import bridge_story


@pytest.fixture(scope="module")
def script():
    # the benchmarks are modules of the checkout (python -m benchmarks.split_runs)
    return importlib.import_module("benchmarks.split_runs")


def runs(script, p, cut):
    p = np.array(p)
    excluded = np.zeros(len(p), dtype=bool)
    return script.split_content_runs(p, 0.55, 0.4, excluded, np.array(cut, dtype=bool)).tolist()


def test_without_cuts_it_is_the_shipped_runs_decoding(script):
    p = np.array([0.45, 0.9, 0.42, 0.1, 0.5, 0.45, 0.6])
    excluded = np.zeros(len(p), dtype=bool)
    shipped = content_runs(p, 0.55, 0.4, excluded).tolist()
    assert runs(script, p, [False] * (len(p) - 1)) == shipped
    assert shipped == [True, True, True, False, True, True, True]


def test_a_doubtful_block_past_a_cut_needs_a_sure_block_of_its_own(script):
    # the sidebar (0.45) after the story (0.9) rides on it unless the DOM parts there
    assert runs(script, [0.9, 0.45], [False]) == [True, True]
    assert runs(script, [0.9, 0.45], [True]) == [True, False]
    # a part with its own sure block stays content
    assert runs(script, [0.9, 0.45, 0.8], [True, False]) == [True, True, True]


def test_blocks_that_meet_only_at_the_body_hold_the_whole_page(script):
    doc = parse_html(
        "<html><body><div><p>one two three four five six</p><p>seven eight nine ten"
        " eleven twelve</p></div><div><p>thirteen fourteen fifteen sixteen seventeen"
        "</p></div></body></html>"
    )
    s = Structure(doc.blocks, doc.root)
    share = script.meeting_share(s, np.arange(3), 3)
    # the first two meet in their <div> (2 of 3 blocks), the last two only at the body
    assert share.tolist() == pytest.approx([2 / 3, 1.0])


def test_the_labeler_keeps_the_story_of_a_plain_page(script):
    doc = parse_html(bridge_story())
    script.SplitRunsLabeler(None, 0.9)(doc)
    shipped = parse_html(bridge_story())
    script.BoostedLabeler()(shipped)
    assert [b.is_content for b in doc.blocks] == [b.is_content for b in shipped.blocks]
    assert any(b.is_content for b in doc.blocks)
