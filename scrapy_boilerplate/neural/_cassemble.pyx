# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""Compiled twin of ``assemble.assemble_python``: a page's block and edge feature arrays
from its text statistics and collapsed DOM, in one pass per row, where the Python twin
makes some two hundred numpy calls on small arrays (whose call overhead, not their
arithmetic, is the Python twin's cost).

Optional, as every twin (``_compiled.py``): ``assemble.py`` uses it when it was built.
Same values within float32 rounding (numpy's vectorised ``log`` may differ from libm's in
the last bit): ``tests/compiled/test_cassemble.py`` compares both on every golden and
crafted page and on random tag soup. Change both together.
"""

import numpy as np

from libc.math cimport isfinite, log, log1p, pow

from .columns import (
    BLOCK_FEATURES,
    EDGE_FEATURES,
    LEAF_TAGS,
    N_EXT_BITS as _N_EXT_BITS,
    PARENT_TAGS,
    TAG_BITS,
    feature_names,
)
from .textstats import (
    ST_CAP,
    ST_CHARS,
    ST_COPY,
    ST_EMAIL,
    ST_ENDP,
    ST_ENDQ,
    ST_LINK,
    ST_NUM,
    ST_PUNCT,
    ST_SENT,
    ST_STOP,
    ST_URL,
    ST_WORDLEN,
    ST_WORDS,
    ST_YEAR,
)

# the statistics columns this file reads by number (textstats.py names them)
assert (ST_CHARS, ST_WORDS, ST_WORDLEN, ST_STOP, ST_CAP, ST_PUNCT, ST_NUM, ST_SENT,
        ST_LINK, ST_COPY, ST_EMAIL, ST_URL, ST_YEAR, ST_ENDP, ST_ENDQ) == tuple(range(15))
assert len(BLOCK_FEATURES) == 128 and len(EDGE_FEATURES) == 25 and len(PARENT_TAGS) == 20
assert len(LEAF_TAGS) == 19

cdef enum:
    CHARS, WORDS, WORDLEN, STOP, CAP, PUNCT, NUM, SENT, LINK, COPY, EMAIL, URL, YEAR, ENDP, ENDQ
    N_STATS = 15
    N_NODE = 20

cdef long long PARENT_MASK[20]
cdef long long LEAF_MASK[19]
for _i, _tag in enumerate(PARENT_TAGS):
    PARENT_MASK[_i] = TAG_BITS[_tag]
for _i, _tag in enumerate(LEAF_TAGS):
    LEAF_MASK[_i] = TAG_BITS[_tag]
cdef int N_EXT_BITS = _N_EXT_BITS


cdef inline double pm(bint x) noexcept nogil:
    return 1.0 if x else -1.0


cdef inline double clip(double x, double lo, double hi) noexcept nogil:
    # np.clip for the finite values that arise here
    return lo if x < lo else (hi if x > hi else x)


cdef inline double floor1(double x) noexcept nogil:
    return x if x > 1.0 else 1.0


cdef inline void flags_and_capitals(double* row, const double* s) noexcept nogil:
    # assemble._flags_and_capitals: six +-1 flags, the capitalised share and its powers
    row[0] = pm(s[ENDP] > 0)
    row[1] = pm(s[ENDQ] > 0)
    row[2] = pm(s[COPY] > 0)
    row[3] = pm(s[EMAIL] > 0)
    row[4] = pm(s[URL] > 0)
    row[5] = pm(s[YEAR] > 0)
    cdef double cap = s[CAP] / floor1(s[WORDS]) if s[WORDS] > 0 else 0.0
    row[6] = cap
    row[7] = cap * cap
    row[8] = pow(cap, 3.0)


cdef inline void node_features(double* row, const double* a, double total_chars,
                               bint form) noexcept nogil:
    # assemble._node_features for one node's aggregated statistics
    cdef double chars = floor1(a[CHARS]), words = a[WORDS], safe_words = floor1(a[WORDS])
    cdef bint has_words = words > 0
    row[0] = chars / floor1(total_chars)
    row[1] = clip(a[LINK] / chars, 0.0, 1.0)
    row[2] = clip(a[WORDLEN] / safe_words, 1.0, 15.0) if has_words else 0.0
    row[3] = pm(a[STOP] > 0)
    row[4] = a[STOP] / safe_words if has_words else 0.0
    row[5] = clip(log(chars), 2.5, 10.0)
    row[6] = clip(log(floor1(a[PUNCT]) / chars), -4.0, -2.5) if a[PUNCT] > 0 else -4.0
    row[7] = pm(a[NUM] > 0)
    row[8] = a[NUM] / chars
    row[9] = clip(log(chars / floor1(a[SENT])), 2.0, 5.0)
    flags_and_capitals(row + 10, a)
    row[19] = pm(form)


cdef inline void leaf_features(double* row, const double* s, double rel) noexcept nogil:
    # assemble._leaf_features for one block (rel: its relative position)
    cdef double chars = s[CHARS], words = s[WORDS], safe_words = floor1(s[WORDS])
    cdef bint has_words = words > 0
    row[0] = pm(has_words)
    row[1] = clip(log(safe_words), 0.0, 3.5)
    row[2] = clip(s[WORDLEN] / safe_words, 1.0, 15.0) if has_words else 0.0
    row[3] = pm(s[STOP] > 0)
    row[4] = s[STOP] / safe_words if has_words else 0.0
    row[5] = clip(log(chars), 2.5, 5.5)
    row[6] = pm(s[PUNCT] > 0)
    row[7] = clip(s[PUNCT], 0.0, 10.0)
    row[8] = clip(log(floor1(s[PUNCT]) / chars), -4.0, -2.5) if s[PUNCT] > 0 else -4.0
    row[9] = pm(s[NUM] > 0)
    row[10] = s[NUM] / chars
    row[11] = clip(log(chars / floor1(s[SENT])), 2.0, 5.0)
    row[12] = pm(s[SENT] > 1)
    row[13] = rel
    row[14] = rel * rel
    flags_and_capitals(row + 15, s)


cdef inline void copy_node(double* row, const double* node) noexcept nogil:
    cdef int k
    for k in range(N_NODE):
        row[k] = node[k]


cdef object _int64(values):
    # np.asarray(values, dtype=np.int64), read item by item from a list (the collapsed DOM
    # gives lists of ints and bools; numpy's conversion of a list inspects every item's
    # type first)
    cdef Py_ssize_t k, count
    cdef long long[::1] view
    if type(values) is not list:
        return np.ascontiguousarray(values, dtype=np.int64)
    count = len(<list>values)
    out = np.empty(count, dtype=np.int64)
    view = out
    for k in range(count):
        view[k] = (<list>values)[k]
    return out


cdef inline float finite(double x) noexcept nogil:
    # np.nan_to_num(..., nan=0, posinf=0, neginf=0), the safety net of the Python twin
    return <float>x if isfinite(x) else 0.0


def assemble(st, dup, same_path, s, bint extended):
    """``assemble.assemble_python``, compiled (same arguments, same arrays)."""
    cdef const double[:, ::1] stats = np.ascontiguousarray(st, dtype=np.float64)
    cdef Py_ssize_t n = stats.shape[0], i, j, k, m
    cdef const long long[::1] dups = np.ascontiguousarray(dup, dtype=np.int64)
    cdef const long long[::1] paths = np.ascontiguousarray(same_path, dtype=np.int64)
    cdef const long long[::1] first = _int64(s.node_first)
    cdef const long long[::1] last = _int64(s.node_last)
    cdef const long long[::1] form = _int64(s.node_form)
    cdef const long long[::1] group_tags = _int64(s.group_tags)
    cdef const long long[::1] parent = _int64(s.parent)
    cdef const long long[::1] gp = _int64(s.gp)
    cdef const long long[::1] leaf_tags = _int64(s.leaf_tags)
    m = first.shape[0]
    block_names, edge_names = feature_names(extended)
    cdef Py_ssize_t n_block = len(block_names), n_edge = len(edge_names)
    assert n_block <= 256 and n_edge <= 256  # the row buffer below

    # prefix sums of the statistics, then every node's features from its block range
    csum_arr = np.zeros((n + 1, N_STATS), dtype=np.float64)
    cdef double[:, ::1] csum = csum_arr
    for i in range(n):
        for k in range(N_STATS):
            csum[i + 1, k] = csum[i, k] + stats[i, k]
    cdef double total_chars = csum[n, CHARS]
    node_arr = np.empty((m, N_NODE), dtype=np.float64)
    cdef double[:, ::1] nodes = node_arr
    cdef double agg[N_STATS]
    for j in range(m):
        for k in range(N_STATS):
            agg[k] = csum[last[j] + 1, k] - csum[first[j], k]
        # ends-with flags come from the node's last block, not a sum
        agg[ENDP] = stats[last[j], ENDP]
        agg[ENDQ] = stats[last[j], ENDQ]
        node_features(&nodes[j, 0], agg, total_chars, form[j] != 0)

    out_arr = np.empty((n, n_block), dtype=np.float32)
    cdef float[:, ::1] out = out_arr
    cdef double row[256]
    cdef double chars_before = 0.0, rel
    cdef long long p, g, tags
    cdef const long long[::1] ext_bits
    cdef const long long[::1] depth
    cdef const long long[::1] parent_count
    cdef Py_ssize_t longest = 0
    cdef double longest_words = 0.0
    if extended:
        ext_bits = _int64(s.ext_bits)
        depth = _int64(s.depth)
        parent_count = _int64(s.parent_count)
        for i in range(1, n):  # np.argmax: the first of the largest
            if stats[i, WORDS] > stats[longest, WORDS]:
                longest = i
        longest_words = floor1(stats[longest, WORDS]) if n else 1.0
    for i in range(n):
        row[0] = pm(dups[i] > 1)
        row[1] = pm(dups[i] > 10)
        row[2] = <double>paths[i] / n
        # relative position: the centre of the block in the page's characters
        chars_before += stats[i, CHARS]
        rel = (chars_before - stats[i, CHARS] / 2.0) / floor1(total_chars)
        leaf_features(row + 3, &stats[i, 0], rel)
        p = parent[i]
        row[27] = 1.0 if p >= 0 else 0.0
        if p >= 0:
            copy_node(row + 28, &nodes[p, 0])
            tags = group_tags[p]
            for k in range(20):
                row[48 + k] = pm((tags & PARENT_MASK[k]) != 0)
        else:
            for k in range(20):
                row[28 + k] = 0.0
                row[48 + k] = -1.0
        g = gp[i]
        row[68] = 1.0 if g >= 0 else 0.0
        if g >= 0:
            copy_node(row + 69, &nodes[g, 0])
        else:
            for k in range(20):
                row[69 + k] = 0.0
        copy_node(row + 89, &nodes[0, 0])
        tags = leaf_tags[i]
        for k in range(19):
            row[109 + k] = pm((tags & LEAF_MASK[k]) != 0)
        if extended:
            for k in range(N_EXT_BITS):
                row[128 + k] = pm((ext_bits[i] & (<long long>1 << k)) != 0)
            row[128 + N_EXT_BITS] = log1p(<double>depth[i])
            row[128 + N_EXT_BITS + 1] = log(<double>parent_count[i])
            row[128 + N_EXT_BITS + 2] = <double>(i - longest) / n
            row[128 + N_EXT_BITS + 3] = stats[i, WORDS] / longest_words
        for k in range(n_block):
            out[i, k] = finite(row[k])

    edges_arr = np.empty((max(n - 1, 0), n_edge), dtype=np.float32)
    cdef float[:, ::1] edges = edges_arr
    cdef const long long[::1] dist
    cdef const long long[::1] brk
    cdef const long long[::1] lca
    cdef long long d, differ
    if n > 1:
        dist = _int64(s.edge_dist)
        brk = _int64(s.edge_break)
        lca = _int64(s.lca)
        for i in range(n - 1):
            d = dist[i]
            row[0] = pm(d == 2)
            row[1] = pm(d == 3)
            row[2] = pm(d == 4)
            row[3] = pm(d > 4)
            row[4] = 1.0 if brk[i] else 0.0
            copy_node(row + 5, &nodes[lca[i], 0])
            if extended:
                differ = ext_bits[i] ^ ext_bits[i + 1]
                for k in range(N_EXT_BITS):
                    row[25 + k] = pm((differ & (<long long>1 << k)) != 0)
            for k in range(n_edge):
                edges[i, k] = finite(row[k])
    return out_arr, edges_arr
