"""Web2Text's compiled decoder (``neural/_cviterbi.pyx``) gives what
``viterbi.viterbi_python`` gives."""

import numpy as np

from .helpers import compiled, viterbi_module


@compiled
def test_both_viterbi_decoders_give_the_same_labels_on_random_scores_with_ties():
    # whole-number scores tie often: both must break ties alike (label 0, earlier path)
    rng = np.random.default_rng(5)
    for trial in range(2000):
        n = int(rng.integers(1, 40))
        if trial % 2:
            u, e = rng.integers(-3, 1, size=(n, 2)), rng.integers(-3, 1, size=(n - 1, 4))
        else:
            u, e = rng.normal(size=(n, 2)), rng.normal(size=(n - 1, 4))
        u, e = u.astype(np.float32), e.astype(np.float32)
        lam = float(rng.choice([0.0, 0.1, 1.0, 2.5]))
        got = viterbi_module.viterbi(u, e, lam)
        want = viterbi_module.viterbi_python(u, e, lam)
        assert got.dtype == want.dtype and got.tolist() == want.tolist(), trial
