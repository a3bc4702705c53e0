"""CETD (``filters/density/cetd.py``): composite text density and DensitySum by hand on the
tiny tree of conftest.py, and the subtree it keeps."""

from __future__ import annotations

import math

import pytest

from scrapy_boilerplate.filters.density import cetd_scores, cetd_select


def test_cetd_composite_text_density_by_hand(tiny):
    ctd, density_sum, ratio = cetd_scores(tiny)
    assert ratio == pytest.approx(8 / 22)  # LC / C of <body>
    # p1: C = 10, and T, LC, LT (all 0) count as 1; nLC = 10:
    # CTD = (10/1) ln(10*1 / (1*1)) / ln ln(10*1/10 + ratio*10 + e)
    p1 = 10 * math.log(10) / math.log(math.log(1 + ratio * 10 + math.e))
    assert ctd[2] == pytest.approx(p1)  # 23.0259 / ln ln 7.3546 = 33.33
    assert ctd[2] == pytest.approx(33.332, abs=1e-3)
    # p2: C = 8, T = 1, LC = 4, LT = 1, nLC = 4:
    # CTD = (8/1) ln(8*1 / (4*1)) / ln ln(8*4/4 + ratio*8 + e)
    p2 = 8 * math.log(2) / math.log(math.log(8 + ratio * 8 + math.e))
    assert ctd[3] == pytest.approx(p2)
    # a1 (a link without children): C = LC = 4, T and LT count as 1, nLC = 0 -> 1:
    # CTD = (4/1) ln(4*1 / (4*1)) / ... = 0: text made only of links has no density
    assert ctd[4] == 0.0
    # div: C = 18, T = 3, LC = 4, LT = 1, nLC = 14:
    # CTD = (18/3) ln(18*3 / (4*1)) / ln ln(18*4/14 + ratio*18 + e)
    div = 6 * math.log(54 / 4) / math.log(math.log(72 / 14 + ratio * 18 + math.e))
    assert ctd[1] == pytest.approx(div)
    # DensitySum: a leaf has its CTD; div sums its children's CTD; p2 sums a1's CTD and
    # its own runs "ab" and "cd" as link-free nodes: L ln L / ln ln(1 + ratio L + e)
    run = 2 * math.log(2) / math.log(math.log(1 + ratio * 2 + math.e))
    assert density_sum[2] == pytest.approx(p1)
    assert density_sum[1] == pytest.approx(p1 + p2)
    assert density_sum[3] == pytest.approx(0.0 + 2 * run)


def test_cetd_keeps_the_dense_subtree(tiny):
    kept = cetd_select(tiny, keep_path_text=False)
    # max DensitySum: body (= CTD(div) + CTD(ul)) or div; either way the div subtree is
    # content and the link list is not
    assert kept[1:5].all()
    assert not kept[5:].any()
