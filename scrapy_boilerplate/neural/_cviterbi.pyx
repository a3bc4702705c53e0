# cython: language_level=3, boundscheck=False, wraparound=False
"""Compiled twin of ``viterbi.viterbi_python``: the same recursion on C doubles, in the
same order of additions and with the same tie rules, so the same labels.

Optional, as every twin (``_compiled.py``): ``viterbi.py`` uses it when it was built.
``tests/compiled/test_cviterbi.py`` compares both on random scores with ties. Change both
together.
"""

import numpy as np


def viterbi(log_unary, log_pairwise, double lam):
    """``viterbi.viterbi_python``, compiled (same arguments, same labels)."""
    cdef const double[:, ::1] u = np.ascontiguousarray(
        np.asarray(log_unary, dtype=np.float64).reshape(-1, 2)
    )
    cdef Py_ssize_t n = u.shape[0], i
    if n == 0:
        return np.zeros(0, dtype=np.int8)
    if n == 1:
        return np.array([1 if u[0, 1] > u[0, 0] else 0], dtype=np.int8)
    e_arr = np.asarray(log_pairwise, dtype=np.float64).reshape(-1, 4)
    if len(e_arr) != n - 1:
        raise ValueError(f"{n} blocks need {n - 1} edges, got {len(e_arr)}")
    cdef const double[:, ::1] e = np.ascontiguousarray(lam * e_arr)
    back_arr = np.zeros((n, 2), dtype=np.int8)
    cdef signed char[:, ::1] back = back_arr
    cdef double s0 = u[0, 0], s1 = u[0, 1], a, b, n0, n1
    for i in range(1, n):
        a = s0 + e[i - 1, 0]
        b = s1 + e[i - 1, 2]
        if b > a:
            n0 = b
            back[i, 0] = 1
        else:
            n0 = a
        a = s0 + e[i - 1, 1]
        b = s1 + e[i - 1, 3]
        if b > a:
            n1 = b
            back[i, 1] = 1
        else:
            n1 = a
        s0 = n0 + u[i, 0]
        s1 = n1 + u[i, 1]
    out_arr = np.empty(n, dtype=np.int8)
    cdef signed char[::1] out = out_arr
    cdef signed char state = 1 if s1 > s0 else 0
    for i in range(n - 1, -1, -1):
        out[i] = state
        state = back[i, state]
    return out_arr
