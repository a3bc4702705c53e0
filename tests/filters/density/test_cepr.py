"""CEPR (``filters/density/cepr.py``): tag path edit distance, and smoothing weighted by
path similarity, by hand on the tiny tree of conftest.py."""

from __future__ import annotations

import math

import pytest

from scrapy_boilerplate.filters.density import cepr_scores, path_distance, tag_path_ratios


def test_tag_path_edit_distance(tiny):
    path = tiny.path.tolist()
    # body/div/p vs body/ul/li/a: after the common "body", [div, p] vs [ul, li, a]: 3 edits
    assert path_distance(tiny, path[2], path[7]) == 3
    assert path_distance(tiny, path[2], path[3]) == 0  # p1 and p2 share their path
    assert path_distance(tiny, path[2], path[4]) == 1  # body/div/p/a: one insertion
    assert path_distance(tiny, path[1], path[5]) == 1  # div vs ul: one substitution


def test_cepr_smoothing_is_weighted_by_path_similarity(tiny):
    runs, raw = tag_path_ratios(tiny)
    runs, smooth = cepr_scores(tiny, extended=False, radius=1, sigma=1.0)
    g = math.exp(-0.5)
    # run 0 (path body/div/p) has one neighbour, run 1, on the same path: weight g
    assert smooth[0] == pytest.approx((raw[0] + g * raw[1]) / (1 + g))
    # run 4 (body/ul/li/a) and run 3 (body/div/p): similarity 1 - 3/4
    w = g * (1 - 3 / 4)
    assert smooth[4] == pytest.approx((raw[4] + w * raw[3]) / (1 + w))
    # no smoothing at all with radius 0
    assert cepr_scores(tiny, extended=False, radius=0)[1].tolist() == raw.tolist()
