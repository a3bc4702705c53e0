# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""Compiled twin of ``boosted_features.page_columns_python``: the boosted labeler's page
columns in one pass per row, where the Python twin makes some sixty numpy calls on small
arrays (their call overhead, not their arithmetic, is its cost: 0.3-0.4 ms of a median
page).

Optional, as every twin (``_compiled.py``): ``boosted_features.py`` uses it when it was
built. Same values within float32 rounding (numpy's ``log1p`` may differ from libm's in
the last bit): ``tests/compiled/test_cboosted_features.py`` compares both on every
golden and crafted page and on random tag soup. Change both together.
"""

import numpy as np

from libc.math cimport fmax, log1p

from .boosted_features import (
    _EDGE_COLUMNS,
    _LABEL_COLUMN,
    _LABELS,
    _NEIGHBOUR_INDEX,
    _OWN,
    _CONTAINER,
    BOOSTED_FEATURES,
    NEIGHBOUR_OFFSETS,
    TEXT_LIKE_WORDS,
    WINDOWS,
)

# the layout this file writes by number (boosted_features.py names it)
assert NEIGHBOUR_OFFSETS == (-3, -2, -1, 1, 2, 3) and WINDOWS == (2, 5, 10, 25)
assert len(_OWN) == 3 and len(_LABELS) == 5 and len(_CONTAINER) == 12
assert len(_NEIGHBOUR_INDEX) <= 64  # NEIGHBOUR_INDEX's size below

cdef int N_NEIGHBOUR = len(_NEIGHBOUR_INDEX)
cdef int NB_WIDTH = 3 + len(_NEIGHBOUR_INDEX)
cdef int EDGE = _EDGE_COLUMNS
cdef int WIDTH = len(BOOSTED_FEATURES)
cdef int[6] OFFSETS = [-3, -2, -1, 1, 2, 3]
cdef int[4] WINDOW = [2, 5, 10, 25]
cdef int[64] NEIGHBOUR_INDEX
for _i, _c in enumerate(_NEIGHBOUR_INDEX):
    NEIGHBOUR_INDEX[_i] = _c
cdef double TEXT_LIKE = TEXT_LIKE_WORDS


def page_columns(list blocks, web2text, edges, s):
    """See ``boosted_features.page_columns_python``."""
    cdef Py_ssize_t n = len(blocks)
    cdef const float[:, :] w2t = web2text
    cdef const float[:, :] edg = edges
    cdef Py_ssize_t n_w2t = w2t.shape[1]
    out_array = np.zeros((n, WIDTH), dtype=np.float32)
    cdef float[:, ::1] out = out_array
    buffers = np.zeros((11, n + 1), dtype=np.float64)
    cdef double[:, ::1] buf = buffers
    # per block (0..n-1): words, linked, density, level, own link share, log(1 + words);
    # prefix sums (0..n): words, linked, text-like, unlinked, text-like unlinked
    cdef double[:] words = buf[0], linked = buf[1], density = buf[2], level = buf[3]
    cdef double[:] share = buf[4], log_words = buf[10]
    cdef double[:] cw = buf[5], cl = buf[6], ct = buf[7], cu = buf[8], ctu = buf[9]
    cdef Py_ssize_t i, c, k, at, row, lo, hi
    cdef double w, ln, ww, total, total_unlinked, text_like
    column_of = _LABEL_COLUMN.get
    at = 0
    for i in range(n):
        block = blocks[i]
        words[i] = block.num_words
        linked[i] = block.num_words_in_anchor_text
        density[i] = block.text_density
        level[i] = block.tag_level
        labels = block.labels
        if labels:
            for label in labels:
                column = column_of(label)
                if column is not None:
                    out[i, n_w2t + 4 + <int>column] = 1.0
    for i in range(n):
        w = words[i]
        ln = linked[i]
        text_like = 1.0 if (w >= TEXT_LIKE and ln * 3 <= w) else 0.0
        share[i] = ln / fmax(w, 1.0)
        log_words[i] = log1p(w)
        cw[i + 1] = cw[i] + w
        cl[i + 1] = cl[i] + ln
        ct[i + 1] = ct[i] + text_like
        cu[i + 1] = cu[i] + (w - ln)
        ctu[i + 1] = ctu[i] + (w - ln) * text_like
    total = fmax(cw[n], 1.0)
    total_unlinked = fmax(cu[n], 1.0)
    for i in range(n):
        for c in range(n_w2t):
            out[i, c] = w2t[i, c]
        at = n_w2t
        out[i, at] = log_words[i]
        out[i, at + 1] = share[i]
        out[i, at + 2] = density[i]
        out[i, at + 3] = level[i]
        at += 9  # past the five label flags, written above
        for k in range(6):  # block i + k's own columns and Web2Text's, zeros past the ends
            row = i + OFFSETS[k]
            if 0 <= row < n:
                out[i, at] = log_words[row]
                out[i, at + 1] = share[row]
                out[i, at + 2] = density[row]
                for c in range(N_NEIGHBOUR):
                    out[i, at + 3 + c] = w2t[row, NEIGHBOUR_INDEX[c]]
            at += NB_WIDTH
        for k in range(4):
            lo = i - WINDOW[k]
            if lo < 0:
                lo = 0
            hi = i + WINDOW[k] + 1
            if hi > n:
                hi = n
            ww = cw[hi] - cw[lo]
            out[i, at] = log1p(ww)
            out[i, at + 1] = (cl[hi] - cl[lo]) / fmax(ww, 1.0)
            out[i, at + 2] = (ct[hi] - ct[lo]) / <double>(hi - lo)
            out[i, at + 3] = (cu[hi] - cu[lo]) / total
            at += 4
        out[i, at] = log1p(<double>n)
        out[i, at + 1] = log1p(total)
        out[i, at + 2] = cl[n] / total
        out[i, at + 3] = <double>i / <double>n
        out[i, at + 4] = cw[i] / total
        at += 5
        if i > 0:  # the edge to the previous block
            for c in range(EDGE):
                out[i, at + c] = edg[i - 1, c]
        at += EDGE
        if i < n - 1:  # the edge to the next block
            for c in range(EDGE):
                out[i, at + c] = edg[i, c]
        at += EDGE
    _containers(out, at, s, cw, cu, ctu, total_unlinked, n)
    assert at + 12 == WIDTH, (at, WIDTH)
    return out_array


cdef void _containers(
    float[:, ::1] out,
    Py_ssize_t at,
    s,
    double[:] cw,
    double[:] cu,
    double[:] ctu,
    double total_unlinked,
    Py_ssize_t n,
) except *:
    """The container columns (see ``boosted_features._containers``)."""
    node_first = s.node_first
    node_last = s.node_last
    cdef Py_ssize_t m = len(node_first)
    nodes = np.zeros((3, m), dtype=np.float64)
    cdef double[:, ::1] nd = nodes
    cdef double[:] coverage = nd[0], purity = nd[1], score = nd[2]
    spans = np.zeros((2, m), dtype=np.int64)
    cdef long long[:, ::1] sp = spans
    cdef long long[:] first = sp[0], last = sp[1]
    cdef Py_ssize_t i, j, c, chosen, best, node
    cdef double threshold, best_score
    for j in range(m):
        first[j] = node_first[j]
        last[j] = <long long>node_last[j] + 1
        coverage[j] = (cu[last[j]] - cu[first[j]]) / total_unlinked
        purity[j] = (ctu[last[j]] - ctu[first[j]]) / fmax(cw[last[j]] - cw[first[j]], 1.0)
        score[j] = coverage[j] * purity[j]
    # the smallest node holding half (80 %) of the unlinked words; the root if none does
    for c in range(2):
        threshold = 0.5 if c == 0 else 0.8
        chosen = -1
        for j in range(m):
            if coverage[j] >= threshold and (
                chosen < 0 or last[j] - first[j] < last[chosen] - first[chosen]
            ):
                chosen = j
        if chosen < 0:
            chosen = 0
        for i in range(n):
            out[i, at + c] = 1.0 if first[chosen] <= i < last[chosen] else 0.0
            out[i, at + 2 + c] = purity[chosen]
    best = 0
    for j in range(1, m):
        if score[j] > score[best]:
            best = j
    best_score = fmax(score[best], 1e-9)
    for i in range(n):
        out[i, at + 4] = 1.0 if first[best] <= i < last[best] else 0.0
        out[i, at + 5] = score[best]
    for c, parents in enumerate((s.parent, s.gp)):
        for i in range(n):
            node = parents[i]
            if node >= 0:
                out[i, at + 6 + 3 * c] = coverage[node]
                out[i, at + 7 + 3 * c] = purity[node]
                out[i, at + 8 + 3 * c] = score[node] / best_score
            else:
                out[i, at + 6 + 3 * c] = 1.0
                out[i, at + 7 + 3 * c] = purity[0]
                out[i, at + 8 + 3 * c] = 0.0
