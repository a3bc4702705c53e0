"""Viterbi decoding (``neural/viterbi.py``) against brute force over every label sequence."""

import itertools

import numpy as np
import pytest

from scrapy_boilerplate.neural.viterbi import sequence_score, viterbi, viterbi_python

# the decoder in use (compiled when built) and its pure-Python twin behave alike
DECODERS = pytest.mark.parametrize("decode", [viterbi, viterbi_python], ids=["in_use", "python"])


def _log_softmax(x):
    x = x - x.max(axis=-1, keepdims=True)
    return x - np.log(np.exp(x).sum(axis=-1, keepdims=True))


@DECODERS
@pytest.mark.parametrize("seed", range(40))
def test_viterbi_matches_brute_force(seed, decode):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(1, 9))
    lam = float(rng.choice([0.0, 0.1, 0.5, 1.0, 3.0]))
    u = _log_softmax(rng.normal(size=(n, 2)) * 2)
    e = _log_softmax(rng.normal(size=(max(n - 1, 0), 4)) * 2)
    best = max(sequence_score(y, u, e, lam) for y in itertools.product((0, 1), repeat=n))
    got = decode(u, e, lam)
    assert got.shape == (n,)
    assert set(got.tolist()) <= {0, 1}
    assert sequence_score(got, u, e, lam) == pytest.approx(best, abs=1e-9)


@DECODERS
def test_viterbi_empty_and_single(decode):
    assert decode(np.zeros((0, 2)), np.zeros((0, 4)), 1.0).shape == (0,)
    assert decode(np.log([[0.2, 0.8]]), np.zeros((0, 4)), 1.0).tolist() == [1]
    assert decode(np.log([[0.8, 0.2]]), np.zeros((0, 4)), 1.0).tolist() == [0]


@DECODERS
def test_pairwise_term_smooths_labels(decode):
    # the middle block alone would be boilerplate; strong "stay" edges keep it content
    u = np.log([[0.1, 0.9], [0.6, 0.4], [0.1, 0.9]])
    stay = np.log([[0.45, 0.05, 0.05, 0.45]] * 2)
    assert decode(u, stay, 0.0).tolist() == [1, 0, 1]
    assert decode(u, stay, 1.0).tolist() == [1, 1, 1]


@DECODERS
def test_wrong_edge_count_is_an_error(decode):
    with pytest.raises(ValueError):
        decode(np.zeros((3, 2)), np.zeros((3, 4)), 1.0)
