"""CETR (``filters/density/cetr.py``): lines rebuilt from the DOM, smoothing, derivative and
clustering, with values worked out by hand."""

from __future__ import annotations

import numpy as np
import pytest
from lxml import etree

from scrapy_boilerplate.filters.density import (
    cetr_features,
    cetr_lines,
    dom_stats,
    gaussian_smooth,
    kmeans_pinned,
)


def test_cetr_lines_rebuilt_from_the_dom():
    html = "<html><body>\n<p>Hello <b>big</b> world</p>\n<div><a>x</a></div>\n</body></html>"
    stats = dom_stats(etree.fromstring(html, etree.HTMLParser()))
    # line 0: <body>; line 1: <p> <b> </b> </p> with 5 + 3 + 5 characters; line 2:
    # <div> <a> </a> </div> with 1; line 3: </body>
    chars, tags, piece_run, piece_line, piece_chars = cetr_lines(stats, max_line_tags=100)
    assert chars.tolist() == [0, 13, 1, 0]
    assert tags.tolist() == [1, 4, 4, 1]
    assert piece_line.tolist() == [1, 1, 1, 2]
    # a line with more tags than the limit is split at its text runs
    chars, tags, *_ = cetr_lines(stats, max_line_tags=3)
    assert chars.tolist() == [0, 5, 3, 5, 0, 1, 0, 0]
    assert tags.tolist() == [1, 1, 1, 1, 1, 2, 2, 1]


def test_cetr_smoothing_derivative_and_clustering():
    flat = gaussian_smooth(np.full(5, 3.0), 1.0)
    assert flat.tolist() == pytest.approx([3.0] * 5)  # normalised at the ends
    impulse = gaussian_smooth(np.array([0.0, 0.0, 1.0, 0.0, 0.0]), 1.0)
    assert impulse[1] == pytest.approx(impulse[3])
    assert impulse[2] > impulse[1] > impulse[0]
    features = cetr_features(np.array([0.0, 0.0, 10.0, 10.0, 10.0, 0.0]), sigma=0.0001)
    # no smoothing to speak of: G = |mean of the next 3 lines - TR|: line 0: mean(0, 10,
    # 10) = 20/3; line 1: 10; line 2: |20/3 - 10|; line 3: mean(10, 0) = 5, |5 - 10|;
    # line 4: |0 - 10|; the last line: |mean of the last two (10, 0) - 0| = 5
    assert features[:, 0].tolist() == pytest.approx([0, 0, 10, 10, 10, 0])
    assert features[:, 1].tolist() == pytest.approx([20 / 3, 10, 10 / 3, 5, 10, 5])
    points = np.array([[0.1, 0.0], [0.0, 0.2], [9.0, 1.0], [10.0, 1.0], [30.0, 2.0]])
    labels = kmeans_pinned(points)
    assert labels[0] == labels[1] == 0  # the origin's cluster
    assert (labels[2:] != 0).all()
    assert kmeans_pinned(points).tolist() == labels.tolist()  # deterministic
