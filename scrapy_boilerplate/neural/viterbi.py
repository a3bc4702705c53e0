"""Viterbi decoding of the Web2Text chain model (two labels per block).

Maximises ``sum_i log p_u(y_i) + lam * sum_i log p_e(y_i, y_{i+1})`` over label sequences
``y`` in {0, 1}^n, where ``p_e`` is indexed by ``2 * y_i + y_{i+1}`` (algorithms.md 2.7).
Pages have a few hundred blocks and two states, so the recursion runs on Python floats
(faster than numpy calls of size 2); the result is exact. ``_cviterbi.pyx`` is its compiled
twin (same additions in the same order, same labels); ``viterbi`` is whichever is built.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .._compiled import use_twin

__all__ = ["viterbi", "viterbi_python", "sequence_score", "COMPILED"]


def viterbi_python(log_unary: Any, log_pairwise: Any, lam: float) -> np.ndarray:
    """The best label sequence (int8 array of 0/1) for ``log_unary`` (n x 2) and
    ``log_pairwise`` ((n-1) x 4). Ties prefer label 0, then the earlier path."""
    u = np.asarray(log_unary, dtype=np.float64).reshape(-1, 2)
    n = len(u)
    if n == 0:
        return np.zeros(0, dtype=np.int8)
    if n == 1:
        return np.array([1 if u[0, 1] > u[0, 0] else 0], dtype=np.int8)
    e = np.asarray(log_pairwise, dtype=np.float64).reshape(-1, 4)
    if len(e) != n - 1:
        raise ValueError(f"{n} blocks need {n - 1} edges, got {len(e)}")
    ul = u.tolist()
    el = (lam * e).tolist()
    # forward pass: best score of a path ending in state s at block i, and its backpointer
    s0, s1 = ul[0]
    back0 = [0] * n
    back1 = [0] * n
    for i in range(1, n):
        e00, e01, e10, e11 = el[i - 1]
        u0, u1 = ul[i]
        a = s0 + e00
        b = s1 + e10
        if b > a:
            n0, back0[i] = b, 1
        else:
            n0 = a
        a = s0 + e01
        b = s1 + e11
        if b > a:
            n1, back1[i] = b, 1
        else:
            n1 = a
        s0, s1 = n0 + u0, n1 + u1
    out = np.empty(n, dtype=np.int8)
    state = 1 if s1 > s0 else 0
    for i in range(n - 1, -1, -1):
        out[i] = state
        state = back1[i] if state else back0[i]
    return out


def sequence_score(labels: Any, log_unary: Any, log_pairwise: Any, lam: float) -> float:
    """The objective Viterbi maximises, for one label sequence (used by the tests)."""
    y = np.asarray(labels, dtype=np.int64)
    u = np.asarray(log_unary, dtype=np.float64).reshape(-1, 2)
    total = float(u[np.arange(len(y)), y].sum())
    if len(y) > 1:
        e = np.asarray(log_pairwise, dtype=np.float64).reshape(-1, 4)
        total += lam * float(e[np.arange(len(y) - 1), 2 * y[:-1] + y[1:]].sum())
    return total


viterbi = viterbi_python
#: whether the compiled decoder (``_cviterbi``) is in use
COMPILED = use_twin(globals(), "viterbi")
