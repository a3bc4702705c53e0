"""CETD-TPC (``filters/density/tpc.py``): text block density, tag path ratios, CTPC and
TDTPC by hand on the tiny tree of conftest.py."""

from __future__ import annotations

import pytest

from scrapy_boilerplate.filters.density import cetd_tpc_select, tag_path_ratios, text_block_density


def test_tbd_tpr_ctpc_tdtpc_by_hand(tiny):
    tbd = text_block_density(tiny)  # own_tag: TN and LTN count the child's own tag
    # div: p1 (11) / (1 - 0 + 1) = 5.5; p2 (8 - 4 + 1) / (2 - 1 + 1) = 2.5  -> 8
    assert tbd[1] == pytest.approx(8.0)
    # body: div (18 - 4 + 1) / (4 - 1 + 1) = 3.75; ul (4 - 4 + 1) / (3 - 2 + 1) = 0.5
    assert tbd[0] == pytest.approx(4.25)
    # li: a2 lies in a link, all its characters are link characters: 1 / (1 - 1 + 1)
    assert tbd[6] == pytest.approx(1.0)
    # without the child's own tag (TN = T): div = 11/1 + 5/1, body = 15/3 + 1/1
    plain = text_block_density(tiny, own_tag=False)
    assert plain[1] == pytest.approx(16.0)
    assert plain[0] == pytest.approx(6.0)
    # with text nodes as children, p2 adds "ab" and "cd": (2 + 1) / 1 each
    assert text_block_density(tiny, text_nodes=True)[3] == pytest.approx(tbd[3] + 6)

    runs, tpr = tag_path_ratios(tiny)
    # paths: body/div/p has runs of 10, 2, 2 -> 14/3; body/div/p/a 4; body/ul/li/a 4
    assert tpr.tolist() == pytest.approx([14 / 3, 14 / 3, 4, 14 / 3, 4])
    # tau = 1.5 * std(TPR) = 1.5 * 0.3266 = 0.49: all five runs are content nodes; CTPC of
    # div = 4/5, of ul = 1/5. TDTPC: div 8 * 0.8 = 6.4 beats body 4.25 * 1
    best, tdtpc = cetd_tpc_select(tiny)
    assert best == 1
    assert tdtpc[1] == pytest.approx(6.4)
    assert tdtpc[0] == pytest.approx(4.25)
    assert tdtpc[5] == pytest.approx(0.5 * 0.2)  # ul: (4 - 4 + 1) / (2 - 1 + 1) x 1/5
