# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""Compiled twin of ``cetr.kmeans_iterations_python``: CETR's k-means iterations in one C
loop instead of a dozen numpy calls per iteration.

Optional, as every twin (``_compiled.py``). The same float64 operations in the same order
(squared differences summed over the columns in column order, sums over the points in
point order, the first cluster on ties), so the labels are the same;
``tests/compiled/test_ccetr.py`` compares both on random and real points. Change both
together.
"""

import numpy as np

from libc.math cimport fabs


cdef void _assign(const double[:, ::1] points, const double[:, ::1] centres,
                  Py_ssize_t[::1] labels) noexcept nogil:
    cdef Py_ssize_t n = points.shape[0], dims = points.shape[1], k = centres.shape[0]
    cdef Py_ssize_t i, c, j, best
    cdef double dist, best_dist, diff
    for i in range(n):
        best = 0
        best_dist = 0.0
        for c in range(k):
            dist = 0.0
            for j in range(dims):
                diff = points[i, j] - centres[c, j]
                dist = dist + diff * diff
            # argmin: the first smallest, or the first NaN (numpy's argmin picks a NaN)
            if c == 0 or dist < best_dist or (dist != dist and best_dist == best_dist):
                best = c
                best_dist = dist
        labels[i] = best


def kmeans_iterations(points, centres, Py_ssize_t max_iter, double tol):
    """``cetr.kmeans_iterations_python``, compiled (same arguments, same labels)."""
    cdef const double[:, ::1] p = np.ascontiguousarray(points, dtype=np.float64)
    cdef double[:, ::1] cur = np.array(centres, dtype=np.float64, order="C")
    cdef double[:, ::1] new = np.array(centres, dtype=np.float64, order="C")
    cdef Py_ssize_t n = p.shape[0], dims = p.shape[1], k = cur.shape[0]
    out = np.zeros(n, dtype=np.intp)
    cdef Py_ssize_t[::1] labels = out
    cdef double[:, ::1] sums = np.zeros((k, dims), dtype=np.float64)
    cdef Py_ssize_t[::1] counts = np.zeros(k, dtype=np.intp)
    cdef Py_ssize_t it, i, c, j
    cdef double shift, moved
    with nogil:
        for it in range(max_iter):
            _assign(p, cur, labels)
            for c in range(k):
                counts[c] = 0
                for j in range(dims):
                    sums[c, j] = 0.0
            for i in range(n):
                c = labels[i]
                counts[c] += 1
                for j in range(dims):
                    sums[c, j] = sums[c, j] + p[i, j]
            shift = 0.0
            for c in range(k):
                for j in range(dims):
                    if c > 0 and counts[c] > 0:  # the origin's centre never moves
                        new[c, j] = sums[c, j] / counts[c]
                    else:
                        new[c, j] = cur[c, j]
                    moved = fabs(new[c, j] - cur[c, j])
                    if moved > shift or moved != moved:
                        shift = moved
            cur, new = new, cur
            if shift < tol:
                break
        _assign(p, cur, labels)
    return out
