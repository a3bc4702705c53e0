"""BTE (``filters/density/bte.py``): the best range of tag and word values, ties
included."""

from __future__ import annotations

import numpy as np

from scrapy_boilerplate.filters.density import bte_range


def test_bte_range_with_ties():
    # tags -3, words 5, tags -1, words 4, tags -10, words 2: best range 5 - 1 + 4 = 8
    assert bte_range(np.array([-3, 5, -1, 4, -10, 2])) == (1, 3)
    # three ranges sum to 2: [0, 0], [0, 2], [2, 2]; the earliest start, then end, wins
    assert bte_range(np.array([2, -2, 2])) == (0, 0)
    assert bte_range(np.array([-1, -2])) is None
    assert bte_range(np.array([], dtype=np.int64)) is None
