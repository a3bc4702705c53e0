"""The block and edge feature arrays of a page, assembled from its text statistics
(:mod:`.textstats`) and its collapsed DOM (:mod:`.structure`).

``_cassemble.pyx`` is the compiled twin of :func:`assemble_python` (one pass per row, no
numpy temporaries); ``assemble`` is whichever is in use.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from .._compiled import use_twin
from .columns import (
    BLOCK_FEATURES,
    EDGE_FEATURES,
    LEAF_TAGS,
    N_EXT_BITS,
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

__all__ = ["COMPILED", "assemble", "assemble_python"]


def _pm(x: np.ndarray) -> np.ndarray:
    """Booleans as +-1."""
    return np.where(x, 1.0, -1.0)


def _flags_and_capitals(
    out: np.ndarray, col: int, st: np.ndarray, has_words: np.ndarray, safe_words: np.ndarray
) -> None:
    """Columns col..col+8, shared by leaf and node features: the six +-1 flags (ends with
    punctuation, with "?", contains copyright, e-mail, URL, year) and the share of
    capitalised words, squared and cubed."""
    for i, stat in enumerate((ST_ENDP, ST_ENDQ, ST_COPY, ST_EMAIL, ST_URL, ST_YEAR)):
        out[:, col + i] = _pm(st[:, stat] > 0)
    cap = np.where(has_words, st[:, ST_CAP] / safe_words, 0.0)
    out[:, col + 6] = cap
    out[:, col + 7] = cap**2
    out[:, col + 8] = cap**3


def _node_features(agg: np.ndarray, total_chars: float, form: np.ndarray) -> np.ndarray:
    """The 20 node features (D) for aggregated statistics (m x 15) -> m x 20."""
    m = len(agg)
    out = np.zeros((m, 20), dtype=np.float64)
    if m == 0:
        return out
    chars = np.maximum(agg[:, ST_CHARS], 1.0)
    words = agg[:, ST_WORDS]
    safe_words = np.maximum(words, 1.0)
    has_words = words > 0
    out[:, 0] = chars / max(total_chars, 1.0)
    out[:, 1] = np.clip(agg[:, ST_LINK] / chars, 0.0, 1.0)
    out[:, 2] = np.where(has_words, np.clip(agg[:, ST_WORDLEN] / safe_words, 1, 15), 0.0)
    out[:, 3] = _pm(agg[:, ST_STOP] > 0)
    out[:, 4] = np.where(has_words, agg[:, ST_STOP] / safe_words, 0.0)
    out[:, 5] = np.clip(np.log(chars), 2.5, 10.0)
    punct = agg[:, ST_PUNCT]
    out[:, 6] = np.where(
        punct > 0, np.clip(np.log(np.maximum(punct, 1.0) / chars), -4.0, -2.5), -4.0
    )
    out[:, 7] = _pm(agg[:, ST_NUM] > 0)
    out[:, 8] = agg[:, ST_NUM] / chars
    out[:, 9] = np.clip(np.log(chars / np.maximum(agg[:, ST_SENT], 1.0)), 2.0, 5.0)
    _flags_and_capitals(out, 10, agg, has_words, safe_words)
    out[:, 19] = _pm(form)
    return out


def _leaf_features(st: np.ndarray) -> np.ndarray:
    """The 24 leaf features (B), n x 24."""
    n = len(st)
    out = np.zeros((n, 24), dtype=np.float64)
    if n == 0:
        return out
    chars = st[:, ST_CHARS]
    words = st[:, ST_WORDS]
    has_words = words > 0
    safe_words = np.maximum(words, 1.0)
    out[:, 0] = _pm(has_words)
    out[:, 1] = np.clip(np.log(safe_words), 0.0, 3.5)
    out[:, 2] = np.where(has_words, np.clip(st[:, ST_WORDLEN] / safe_words, 1, 15), 0.0)
    out[:, 3] = _pm(st[:, ST_STOP] > 0)
    out[:, 4] = np.where(has_words, st[:, ST_STOP] / safe_words, 0.0)
    out[:, 5] = np.clip(np.log(chars), 2.5, 5.5)
    punct = st[:, ST_PUNCT]
    out[:, 6] = _pm(punct > 0)
    out[:, 7] = np.clip(punct, 0, 10)
    out[:, 8] = np.where(
        punct > 0, np.clip(np.log(np.maximum(punct, 1.0) / chars), -4.0, -2.5), -4.0
    )
    out[:, 9] = _pm(st[:, ST_NUM] > 0)
    out[:, 10] = st[:, ST_NUM] / chars
    out[:, 11] = np.clip(np.log(chars / np.maximum(st[:, ST_SENT], 1.0)), 2.0, 5.0)
    out[:, 12] = _pm(st[:, ST_SENT] > 1)
    # relative position: centre of the block in the page's characters
    cum = np.cumsum(chars)
    centre = cum - chars / 2.0
    rel = centre / max(float(cum[-1]), 1.0)
    out[:, 13] = rel
    out[:, 14] = rel**2
    _flags_and_capitals(out, 15, st, has_words, safe_words)
    return out


def _bit_columns(bits: Sequence[int]) -> np.ndarray:
    arr = np.asarray(bits, dtype=np.int64)
    masks = np.int64(1) << np.arange(N_EXT_BITS, dtype=np.int64)
    return (arr[:, None] & masks[None, :]) != 0


def _tag_columns(bits: Sequence[int], tags: Sequence[str]) -> np.ndarray:
    arr = np.asarray(bits, dtype=np.int64)
    masks = np.array([TAG_BITS[t] for t in tags], dtype=np.int64)
    return _pm((arr[:, None] & masks[None, :]) != 0)


def assemble_python(
    st: np.ndarray, dup: np.ndarray, same_path: np.ndarray, s: Any, extended: bool
) -> tuple[np.ndarray, np.ndarray]:
    """The block and edge feature arrays (float32) of a page with at least one block, from
    its text statistics ``st`` (:func:`block_text_stats`), each block's number of blocks
    with the same text (``dup``) and with the same class path (``same_path``), and its
    collapsed DOM ``s`` (the fields of :data:`STRUCTURE_FIELDS`). ``_cassemble.pyx`` is the
    compiled twin (one pass, no numpy temporaries); ``assemble`` is whichever is available.
    """
    n = len(st)
    block_names, edge_names = feature_names(extended)
    total_chars = float(st[:, ST_CHARS].sum())
    # aggregated statistics of every node, from prefix sums over its block range
    csum = np.concatenate((np.zeros((1, st.shape[1])), np.cumsum(st, axis=0)), axis=0)
    first = np.asarray(s.node_first, dtype=np.int64)
    last = np.asarray(s.node_last, dtype=np.int64)
    agg = csum[last + 1] - csum[first]
    # ends-with flags come from the node's last block, not a sum
    agg[:, ST_ENDP] = st[last, ST_ENDP]
    agg[:, ST_ENDQ] = st[last, ST_ENDQ]
    node_feats = _node_features(agg, total_chars, np.asarray(s.node_form, dtype=bool))

    # one array for Web2Text's columns and ours, filled in place
    out = np.zeros((n, len(block_names)), dtype=np.float64)
    out[:, 0] = _pm(dup > 1)
    out[:, 1] = _pm(dup > 10)
    out[:, 2] = same_path / n
    out[:, 3:27] = _leaf_features(st)
    parent = np.asarray(s.parent, dtype=np.int64)
    has_p = parent >= 0
    out[:, 27] = has_p
    pidx = np.where(has_p, parent, 0)
    out[:, 28:48] = np.where(has_p[:, None], node_feats[pidx], 0.0)
    ptags = np.asarray(s.group_tags, dtype=np.int64)[pidx]
    out[:, 48:68] = np.where(has_p[:, None], _tag_columns(ptags, PARENT_TAGS), -1.0)
    gp = np.asarray(s.gp, dtype=np.int64)
    has_gp = gp >= 0
    out[:, 68] = has_gp
    out[:, 69:89] = np.where(has_gp[:, None], node_feats[np.where(has_gp, gp, 0)], 0.0)
    out[:, 89:109] = node_feats[0][None, :]
    out[:, 109:128] = _tag_columns(s.leaf_tags, LEAF_TAGS)

    edges = np.zeros((max(n - 1, 0), len(edge_names)), dtype=np.float64)
    if n > 1:
        d = np.asarray(s.edge_dist, dtype=np.int64)
        edges[:, 0] = _pm(d == 2)
        edges[:, 1] = _pm(d == 3)
        edges[:, 2] = _pm(d == 4)
        edges[:, 3] = _pm(d > 4)
        edges[:, 4] = np.asarray(s.edge_break, dtype=np.float64)
        edges[:, 5:25] = node_feats[np.asarray(s.lca, dtype=np.int64)]
    if extended:
        bits = _bit_columns(s.ext_bits)
        ext_b = out[:, len(BLOCK_FEATURES) :]
        ext_b[:, :N_EXT_BITS] = _pm(bits)
        ext_b[:, N_EXT_BITS] = np.log1p(np.asarray(s.depth, dtype=np.float64))
        ext_b[:, N_EXT_BITS + 1] = np.log(np.asarray(s.parent_count, dtype=np.float64))
        # page-level context the 7-block receptive field cannot see: where the block is
        # relative to the page's longest block, and how long it is compared to it
        words = st[:, ST_WORDS]
        longest = int(np.argmax(words))
        ext_b[:, N_EXT_BITS + 2] = (np.arange(n) - longest) / n
        ext_b[:, N_EXT_BITS + 3] = words / max(float(words[longest]), 1.0)
        if n > 1:
            edges[:, len(EDGE_FEATURES) :] = _pm(bits[:-1] != bits[1:])
    # no NaN or infinity can arise (every division has a floor); this is the safety net,
    # checked first because the check costs a fraction of the repair
    if not np.isfinite(out).all():
        out = np.nan_to_num(out, nan=0.0, posinf=0.0, neginf=0.0)
    if not np.isfinite(edges).all():
        edges = np.nan_to_num(edges, nan=0.0, posinf=0.0, neginf=0.0)
    return out.astype(np.float32), edges.astype(np.float32)


assemble = assemble_python


#: whether the compiled assembly (``_cassemble``) is in use
COMPILED = use_twin(globals(), "assemble")
