"""CETR's compiled k-means iterations (``filters/density/_ccetr.pyx``) give what
``cetr.kmeans_iterations_python`` gives."""

import numpy as np

from scrapy_boilerplate.filters.density import _dom, cetr
from scrapy_boilerplate.parse import build_tree

from .helpers import compiled, golden_pages


def _initial_centres(points, k):
    mean, top = points.mean(axis=0), points.max(axis=0)
    steps = np.linspace(0.0, 1.0, k - 1)
    return np.vstack([np.zeros(points.shape[1])] + [mean + s * (top - mean) for s in steps])


@compiled
def test_both_kmeans_agree_on_random_points():
    # ties (whole numbers), all points equal, no iterations, tolerance 0, 1-3 dimensions
    rng = np.random.default_rng(0)
    for case in range(2000):
        n, dims, k = int(rng.integers(1, 200)), int(rng.integers(1, 4)), int(rng.integers(2, 5))
        points = rng.exponential(3.0, size=(n, dims))
        if case % 3 == 0:
            points = np.round(points)
        if case % 7 == 0:
            points[:] = 1.0
        centres = _initial_centres(points, k)
        max_iter, tol = int(rng.integers(0, 60)), float(rng.choice([1e-3, 0.0, 1.0]))
        expected = cetr.kmeans_iterations_python(points, centres, max_iter, tol)
        got = cetr.kmeans_iterations(points, centres, max_iter, tol)
        assert got.dtype == expected.dtype and (got == expected).all(), case


@compiled
def test_both_kmeans_agree_on_cetr_lines_of_every_golden_and_crafted_page():
    differing = []
    for name, html in golden_pages():
        root, _ = build_tree(html)
        stats = _dom.dom_stats(root)
        if stats is None:
            continue
        chars, tags, *_ = cetr.cetr_lines(stats)
        points = cetr.cetr_features(chars / np.maximum(tags, 1.0))
        if len(points) == 0:
            continue
        centres = _initial_centres(points, 3)
        expected = cetr.kmeans_iterations_python(points, centres, 50, 1e-3)
        if not (cetr.kmeans_iterations(points, centres, 50, 1e-3) == expected).all():
            differing.append(name)
    assert differing == []
