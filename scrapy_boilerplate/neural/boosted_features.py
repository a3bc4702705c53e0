"""The block features of the ``boosted`` labeler: Web2Text's, and the page around them.

Web2Text's features (:mod:`.features`, with our extension columns) describe a block, its
collapsed parent and grandparent and the root; its networks then see a few blocks on
either side. The boosted labeler's trees see one block at a time, so the page around it
is spelled out as columns:

* the block's own boilerpipe statistics: words, link density, text density, tag level,
  and its heading / list-item labels;
* the same statistics, and a few of Web2Text's columns, of the three blocks before and
  after it;
* windows of 2, 5, 10 and 25 blocks on either side: their words, share of linked words,
  share of blocks that read like text (10 words or more, at most a third of them linked)
  and their share of the page's unlinked words;
* the page: its blocks and words, its share of linked words, the block's place in it;
* the edges to the previous and next block (Web2Text's 25 edge columns);
* containers: the smallest element holding half (and 80 %) of the page's unlinked words,
  the element whose "coverage x purity" is highest (coverage: its share of the page's
  unlinked words; purity: the share of its words in blocks that read like text), whether
  the block is inside each and how pure they are, and the coverage and purity of the
  block's collapsed parent and grandparent.

Everything is computed from arrays the Web2Text pass already made (its collapsed DOM
gives every element's first and last block), in linear time: a few dozen numpy calls per
page in :func:`page_columns_python`, one pass per row in its compiled twin
(``_cboosted_features.pyx``, 0.1 ms instead of 0.4 at a median page). Deterministic and
finite for any page; a page without blocks gives a ``(0, len(BOOSTED_FEATURES))`` array.
"""

from __future__ import annotations

from operator import attrgetter
from typing import Any

import numpy as np

from .._compiled import use_twin
from ..document import Label
from .columns import EDGE_FEATURES, feature_names
from .features import page_features_and_structure

__all__ = [
    "BOOSTED_FEATURES",
    "COMPILED",
    "TEXT_LIKE_WORDS",
    "boosted_features",
    "page_columns",
    "page_columns_python",
]

_BLOCK_NAMES, _EDGE_NAMES = feature_names(extended=True)
#: Web2Text columns repeated for the neighbouring blocks
NEIGHBOUR_COLUMNS = (
    "has_word",
    "log_n_words",
    "has_stopword",
    "stopword_ratio",
    "log_n_characters",
    "contains_punctuation",
    "log_punctuation_ratio",
    "log_avg_sentence_length",
    "ends_with_punctuation",
    "ratio_words_with_capital",
    "has_p",
    "p_link_density",
    "tag_a",
    "tag_p",
    "tag_li",
    "tag_div",
    "anc_class_nav",
    "anc_class_sidebar",
    "anc_class_comment",
    "anc_class_related",
    "anc_class_content",
    "anc_tag_article",
)
_NEIGHBOUR_INDEX = [_BLOCK_NAMES.index(c) for c in NEIGHBOUR_COLUMNS]
_OWN = ("log_words", "link_density", "text_density")
_LABELS = (Label.H1, Label.H2, Label.H3, Label.HEADING, Label.LI)
_LABEL_COLUMN = {label: column for column, label in enumerate(_LABELS)}
NEIGHBOUR_OFFSETS = (-3, -2, -1, 1, 2, 3)
WINDOWS = (2, 5, 10, 25)
_WINDOW_SIZES = np.array(WINDOWS)[:, None]
#: a block "reads like text" with at least this many words, at most a third linked
TEXT_LIKE_WORDS = 10
_EDGE_COLUMNS = len(EDGE_FEATURES)  # Web2Text's own edge columns (not the extension's)
_CONTAINER = (
    "in_half_container",
    "in_most_container",
    "half_container_purity",
    "most_container_purity",
    "in_best_container",
    "best_container_score",
    "parent_coverage",
    "parent_purity",
    "parent_score_vs_best",
    "gp_coverage",
    "gp_purity",
    "gp_score_vs_best",
)


def _names() -> tuple[str, ...]:
    names = list(_BLOCK_NAMES)
    names += [*_OWN, "tag_level", *(f"label_{label.lower()}" for label in _LABELS)]
    for k in NEIGHBOUR_OFFSETS:
        side = f"prev{-k}" if k < 0 else f"next{k}"
        names += [f"{side}_{c}" for c in (*_OWN, *NEIGHBOUR_COLUMNS)]
    for w in WINDOWS:
        names += [
            f"win{w}_log_words",
            f"win{w}_link_share",
            f"win{w}_text_like",
            f"win{w}_text_share",
        ]
    names += ["page_log_blocks", "page_log_words", "page_link_share", "position", "words_before"]
    names += [f"prev_edge_{c}" for c in EDGE_FEATURES]
    names += [f"next_edge_{c}" for c in EDGE_FEATURES]
    names += list(_CONTAINER)
    return tuple(names)


#: the column names, in order (stored with the model, checked when it loads)
BOOSTED_FEATURES: tuple[str, ...] = _names()

_NUM_WORDS = attrgetter("num_words")
_LINKED = attrgetter("num_words_in_anchor_text")
_DENSITY = attrgetter("text_density")
_LEVEL = attrgetter("tag_level")


def boosted_features(doc: Any) -> np.ndarray:
    """The ``n x len(BOOSTED_FEATURES)`` float32 features of a Document's blocks."""
    blocks = doc.blocks
    if not blocks:
        return np.zeros((0, len(BOOSTED_FEATURES)), dtype=np.float32)
    web2text, edges, s = page_features_and_structure(doc, extended=True)
    return page_columns(blocks, web2text, edges, s)


def page_columns_python(
    blocks: list[Any], web2text: np.ndarray, edges: np.ndarray, s: Any
) -> np.ndarray:
    """The features of :func:`boosted_features` from the blocks (at least one), their
    Web2Text block and edge features and the collapsed DOM (:class:`.structure.Structure`)
    those were computed on. The compiled twin (``_cboosted_features``) gives the same
    values within float32 rounding."""
    n = len(blocks)
    width = len(BOOSTED_FEATURES)
    # the columns are written into one float32 array as they are made (a page of 50,000
    # blocks holds no float64 copy of the whole matrix)
    out = np.empty((n, width), dtype=np.float32)
    at = 0

    def put(values: np.ndarray) -> None:
        nonlocal at
        values = values.reshape(n, -1)
        out[:, at : at + values.shape[1]] = values
        at += values.shape[1]

    words = np.fromiter(map(_NUM_WORDS, blocks), dtype=np.float64, count=n)
    linked = np.fromiter(map(_LINKED, blocks), dtype=np.float64, count=n)
    density = np.fromiter(map(_DENSITY, blocks), dtype=np.float64, count=n)
    level = np.fromiter(map(_LEVEL, blocks), dtype=np.float64, count=n)
    own = np.column_stack([np.log1p(words), linked / np.maximum(words, 1.0), density])
    put(web2text)
    put(own)
    put(level)
    put(_label_flags(blocks))
    neighbour = np.column_stack([own, web2text[:, _NEIGHBOUR_INDEX]])
    for k in NEIGHBOUR_OFFSETS:  # row i: block i + k's columns, zeros past either end
        part = out[:, at : at + neighbour.shape[1]]
        part[:] = 0.0
        if abs(k) < n:
            if k > 0:
                part[: n - k] = neighbour[k:]
            else:
                part[-k:] = neighbour[: n + k]
        at += neighbour.shape[1]
    text_like = (words >= TEXT_LIKE_WORDS) & (linked * 3 <= words)
    unlinked = words - linked
    cw = _prefix(words)
    cl = _prefix(linked)
    ct = _prefix(text_like)
    cu = _prefix(unlinked)
    total = max(cw[-1], 1.0)
    idx = np.arange(n)
    # every window at once (row k: window WINDOWS[k]); the columns go window by window
    lo = np.maximum(idx - _WINDOW_SIZES, 0)
    hi = np.minimum(idx + _WINDOW_SIZES + 1, n)
    ww = cw[hi] - cw[lo]
    windows = np.stack(
        [
            np.log1p(ww),
            (cl[hi] - cl[lo]) / np.maximum(ww, 1.0),
            (ct[hi] - ct[lo]) / (hi - lo),
            (cu[hi] - cu[lo]) / total,
        ],
        axis=1,
    )  # (windows, 4, n)
    put(windows.reshape(-1, n).T)
    put(np.full(n, np.log1p(n)))
    put(np.full(n, np.log1p(total)))
    put(np.full(n, cl[-1] / total))
    put(idx / n)
    put(cw[:-1] / total)
    own_edges = edges[:, :_EDGE_COLUMNS]
    none = np.zeros((1, _EDGE_COLUMNS), dtype=np.float32)
    put(np.concatenate([none, own_edges]))  # the edge to the previous block
    put(np.concatenate([own_edges, none]))  # the edge to the next block
    put(_containers(s, cu, _prefix(unlinked * text_like), cw, max(cu[-1], 1.0), n))
    assert at == width, (at, width)
    return out


def _prefix(values: np.ndarray) -> np.ndarray:
    """Prefix sums with a leading 0: the sum over blocks [a, b) is ``p[b] - p[a]``."""
    out = np.zeros(len(values) + 1, dtype=np.float64)
    np.cumsum(values, out=out[1:])
    return out


def _label_flags(blocks: list[Any]) -> np.ndarray:
    """Whether each block carries each of ``_LABELS`` (most blocks carry no label, the
    others one or two: their labels are looked up, not every label asked for)."""
    flags = np.zeros((len(blocks), len(_LABELS)), dtype=np.float64)
    rows: list[int] = []
    columns: list[int] = []
    column_of = _LABEL_COLUMN.get
    for i, block in enumerate(blocks):
        labels = block.labels
        if labels:
            for label in labels:
                column = column_of(label)
                if column is not None:
                    rows.append(i)
                    columns.append(column)
    if rows:
        flags[rows, columns] = 1.0
    return flags


def _containers(
    s: Any,
    unlinked: np.ndarray,
    text_like_unlinked: np.ndarray,
    words: np.ndarray,
    total_unlinked: float,
    n: int,
) -> np.ndarray:
    """The container columns (see the module docstring) from the collapsed DOM's node
    ranges: every node holds the blocks ``first..last``, so its sums are prefix-sum
    differences."""
    first = np.asarray(s.node_first, dtype=np.int64)
    last = np.asarray(s.node_last, dtype=np.int64) + 1
    coverage = (unlinked[last] - unlinked[first]) / total_unlinked
    purity = (text_like_unlinked[last] - text_like_unlinked[first]) / np.maximum(
        words[last] - words[first], 1.0
    )
    score = coverage * purity
    size = last - first
    idx = np.arange(n)
    out = np.zeros((n, len(_CONTAINER)), dtype=np.float64)
    # the nodes holding at least half of the page's unlinked words are nested (a chain):
    # the smallest is the deepest (nodes of one collapsed chain hold the same blocks)
    for c, share in enumerate((0.5, 0.8)):
        held = np.flatnonzero(coverage >= share)
        j = held[np.argmin(size[held])] if len(held) else 0
        out[:, c] = (idx >= first[j]) & (idx < last[j])
        out[:, 2 + c] = purity[j]
    best = int(np.argmax(score))
    best_score = max(float(score[best]), 1e-9)
    out[:, 4] = (idx >= first[best]) & (idx < last[best])
    out[:, 5] = score[best]
    for c, nodes in enumerate((s.parent, s.gp)):
        node = np.asarray(nodes, dtype=np.int64)
        has = node >= 0
        node = np.where(has, node, 0)
        out[:, 6 + 3 * c] = np.where(has, coverage[node], 1.0)
        out[:, 7 + 3 * c] = np.where(has, purity[node], purity[0])
        out[:, 8 + 3 * c] = np.where(has, score[node] / best_score, 0.0)
    return out


page_columns = page_columns_python

#: whether the compiled page columns (``_cboosted_features``) are in use
COMPILED = use_twin(globals(), "page_columns")
