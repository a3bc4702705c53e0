"""``benchmarks.viterbi_decoding``: the default labeler's trees decoded by a two-label
Viterbi instead of the runs (an experiment, not kept)."""

from __future__ import annotations

import numpy as np

from scrapy_boilerplate.parse import parse_html

from ..helpers import bridge_story


def labels(script, p, switch, weight=None, excluded=None, centre=0.5):
    p = np.array(p)
    weight = np.ones(len(p)) if weight is None else np.array(weight, dtype=float)
    excluded = np.zeros(len(p), dtype=bool) if excluded is None else np.array(excluded)
    return script.switch_labels(p, weight, centre, switch, excluded).tolist()


def test_without_a_switch_cost_it_is_a_plain_threshold(script):
    assert labels(script, [0.9, 0.4, 0.6, 0.1], 0.0) == [True, False, True, False]
    assert labels(script, [0.9, 0.4, 0.6], 0.0, centre=0.35) == [True, True, True]


def test_a_switch_cost_pulls_a_doubtful_block_into_the_run_around_it(script):
    # logit(0.45) is -0.2: two changes of label cost more than keeping it
    assert labels(script, [0.95, 0.45, 0.95], 0.5) == [True, True, True]
    # and a lone doubtful block between boilerplate goes out
    assert labels(script, [0.05, 0.55, 0.05], 0.5) == [False, False, False]


def test_long_blocks_pull_harder_with_word_weights(script):
    # the same probabilities; the doubtful block's weight decides whether it flips
    assert labels(script, [0.95, 0.3, 0.95], 0.5, weight=[1, 1, 1]) == [True, True, True]
    assert labels(script, [0.95, 0.3, 0.95], 0.5, weight=[1, 5, 1]) == [True, False, True]


def test_navigation_links_are_never_content(script):
    assert labels(script, [0.95, 0.99, 0.95], 1.0, excluded=[False, True, False]) == [
        True,
        False,
        True,
    ]


def test_the_labeler_keeps_the_story_of_a_plain_page(script):
    doc = parse_html(bridge_story())
    script.ViterbiLabeler(None, "log", 1.0, 0.5)(doc)
    shipped = parse_html(bridge_story())
    script.BoostedLabeler()(shipped)
    assert [b.is_content for b in doc.blocks] == [b.is_content for b in shipped.blocks]
    assert any(b.is_content for b in doc.blocks)
