"""The Web2Text block features (128 per block) and edge features (25 per adjacent pair).

The layout follows algorithms.md 2.4-2.5 (the ECIR version of the reference code), computed
for *our* blocks (boilerpipe segmentation, :mod:`scrapy_boilerplate.parse`) instead of
Web2Text's collapsed-DOM leaves:

* **Leaf.** A block stands for the Web2Text leaf. Its DOM position is its *anchor*: the
  lowest common ancestor of the elements whose direct text is in the block
  (``TextBlock.elements``).
* **Collapsed DOM.** Web2Text merges every element that has a single non-empty child into
  that child (2.2). Here "children" are counted in blocks: walking up from a block's anchor,
  an ancestor holds the same number of blocks as the child below it exactly when all its
  text lies in that one child, so it is merged. The collapsed *parent* of a block is the
  deepest ancestor group holding at least two blocks, the *grandparent* the next group up
  (holding more blocks than the parent), the *root* the group holding every block. Node
  statistics (characters, words, punctuation, ...) are the sums over the blocks a node holds;
  a node's tag list is the tags of every element merged into it, top-down.
* Raw values are computed here; standardisation (z-scores with mean and standard deviation
  measured on our own training data, stored with the model) is applied by the model wrapper
  (:class:`Normalizer`). Binary columns stay +-1 (or 1/0 where the reference uses 1/0).

Quirks of the reference code, and what we do (algorithms.md 2.3-2.4):

* Integer divisions (n_same_class_path, avg_word_length, avg_sentence_length,
  body_percentage): **fixed**, real division, since the int/int versions are constant
  almost everywhere and carry no information.
* ASCII-only word split (Java ``\\W``): **fixed**. A word is a run of Unicode letters, marks,
  digits and ``_``; a Han, kana, Thai, Lao, Khmer or Myanmar character is a word of its own,
  so CJK statistics are per character.
* Case-sensitive stopwords: **fixed** (case-insensitive), and the list is our own, with
  "and" and "by", a few common German, French and Spanish function words, and single-
  character Chinese and Japanese function characters.
* The duplicated ``ul`` column among the parent tags: **fixed**; the second copy is
  ``nav`` (a strong boilerplate signal in today's HTML), so the count stays 128.
* avg_word_length is clipped to [1, 15] rather than [3, 15] (CJK words are one character).
* containsYear matches 1800-2099 rather than any four digits.
* relative_position uses character positions in the page's block text (we keep no source
  offsets); body_percentage is the node's share of the page's characters.
* nCharsInLink comes from the block's link density (share of its words inside ``<a>``).
* Sentence ends are ``.?!;`` + whitespace + an uppercase (or CJK) character, or one of
  ``。！？`` inside the text.

Everything is deterministic and finite for any input: empty pages give (0, 128) and
(0, 25) arrays, one-block pages (1, 128) and (0, 25).
"""

from __future__ import annotations

import itertools
import re
import threading
import unicodedata
from collections import Counter
from collections.abc import Sequence
from operator import attrgetter
from typing import Any

import numpy as np

from .._compiled import compiled_functions

__all__ = [
    "BLOCK_FEATURES",
    "EXT_BLOCK_FEATURES",
    "EXT_EDGE_FEATURES",
    "feature_names",
    "binary_masks",
    "EDGE_FEATURES",
    "BINARY_BLOCK",
    "BINARY_EDGE",
    "Normalizer",
    "page_features",
    "block_text_stats",
]

# --- column names -----------------------------------------------------------------------
_NODE = [
    "body_percentage",
    "link_density",
    "avg_word_length",
    "has_stopword",
    "stopword_ratio",
    "log_n_characters",
    "log_punctuation_ratio",
    "has_numeric",
    "numeric_ratio",
    "log_avg_sentence_length",
    "ends_with_punctuation",
    "ends_with_question_mark",
    "contains_copyright",
    "contains_email",
    "contains_url",
    "contains_year",
    "ratio_words_with_capital",
    "ratio_words_with_capital_2",
    "ratio_words_with_capital_3",
    "contains_form_element",
]
_NODE_BINARY = {
    "has_stopword",
    "has_numeric",
    "ends_with_punctuation",
    "ends_with_question_mark",
    "contains_copyright",
    "contains_email",
    "contains_url",
    "contains_year",
    "contains_form_element",
}
# algorithms.md 2.4 C: p_tag_X (the reference lists ``ul`` twice; the second is ``nav`` here)
PARENT_TAGS = (
    "td div p tr table body ul span li blockquote b small a ol nav i form dl strong pre"
).split()
# algorithms.md 2.4 G: tag_X of the leaf
LEAF_TAGS = "a p td b li span i tr div strong em h3 h2 table h4 small sup h1 blockquote".split()

_LEAF = [
    "has_word",
    "log_n_words",
    "avg_word_length",
    "has_stopword",
    "stopword_ratio",
    "log_n_characters",
    "contains_punctuation",
    "n_punctuation",
    "log_punctuation_ratio",
    "has_numeric",
    "numeric_ratio",
    "log_avg_sentence_length",
    "has_multiple_sentences",
    "relative_position",
    "relative_position_2",
    "ends_with_punctuation",
    "ends_with_question_mark",
    "contains_copyright",
    "contains_email",
    "contains_url",
    "contains_year",
    "ratio_words_with_capital",
    "ratio_words_with_capital_2",
    "ratio_words_with_capital_3",
]
_LEAF_BINARY = {
    "has_word",
    "has_stopword",
    "contains_punctuation",
    "has_numeric",
    "has_multiple_sentences",
    "ends_with_punctuation",
    "ends_with_question_mark",
    "contains_copyright",
    "contains_email",
    "contains_url",
    "contains_year",
}

BLOCK_FEATURES: tuple[str, ...] = tuple(
    ["has_duplicate", "has_10_duplicates", "n_same_class_path"]
    + _LEAF
    + ["has_p"]
    + ["p_" + n for n in _NODE]
    + ["p_tag_" + t for t in PARENT_TAGS]
    + ["has_gp"]
    + ["gp_" + n for n in _NODE]
    + ["root_" + n for n in _NODE]
    + ["tag_" + t for t in LEAF_TAGS]
)
EDGE_FEATURES: tuple[str, ...] = tuple(
    ["tree_distance_2", "tree_distance_3", "tree_distance_4", "tree_distance_more", "block_break"]
    + ["common_ancestor_" + n for n in _NODE]
)
assert len(BLOCK_FEATURES) == 128 and len(EDGE_FEATURES) == 25

#: columns that are binary (+-1 or 1/0): never standardised
BINARY_BLOCK = np.array(
    [
        name in ("has_duplicate", "has_10_duplicates", "has_p", "has_gp")
        or name.startswith(("p_tag_", "tag_"))
        or (name in _LEAF_BINARY and not name.startswith(("p_", "gp_", "root_")))
        or (name.split("_", 1)[0] in ("p", "gp", "root") and name.split("_", 1)[1] in _NODE_BINARY)
        for name in BLOCK_FEATURES
    ],
    dtype=bool,
)
BINARY_EDGE = np.array(
    [
        i < 5 or name[len("common_ancestor_") :] in _NODE_BINARY
        for i, name in enumerate(EDGE_FEATURES)
    ],
    dtype=bool,
)

# --- character classes --------------------------------------------------------------------
# bit flags of the code point table
_W, _C, _U, _D, _P, _E, _S, _Q = 1, 2, 4, 8, 16, 32, 64, 128
_TABLE_SIZE = 0x30000  # code points above: treated as plain word characters
_PUNCT = ".,?;:!。，？；：！、．，？；：！"  # algorithms.md 2.3, plus CJK/full-width forms
_SENTENCE_END = ".?!;"
_CJK_SENTENCE_END = "。！？！？"
_QUESTION = "?？"
# scripts written without spaces: each character is a word
_CHAR_WORD_RANGES = (
    (0x0E00, 0x0EFF),  # Thai, Lao
    (0x1000, 0x109F),  # Myanmar
    (0x1780, 0x17FF),  # Khmer
    (0x2E80, 0x2FDF),  # CJK radicals
    (0x3040, 0x30FF),  # Hiragana, Katakana
    (0x3100, 0x31FF),  # Bopomofo, kana extensions
    (0x3400, 0x4DBF),  # CJK extension A
    (0x4E00, 0x9FFF),  # CJK unified ideographs
    (0xF900, 0xFAFF),  # CJK compatibility ideographs
    (0xFF66, 0xFF9F),  # half-width katakana
    (0x20000, 0x2FFFF),  # CJK extensions B-F
)
_table: np.ndarray | None = None
_table_lock = threading.Lock()


def _char_table() -> np.ndarray:
    """uint8 flags per code point (built once per process, ~0.1 s)."""
    global _table
    if _table is not None:
        return _table
    with _table_lock:
        if _table is None:
            t = np.zeros(_TABLE_SIZE, dtype=np.uint8)
            category = unicodedata.category
            for cp in range(_TABLE_SIZE):
                ch = chr(cp)
                cat = category(ch)
                first = cat[0]
                flags = 0
                if first in "LMN" or ch == "_":
                    flags |= _W
                if cat == "Lu" or cat == "Lt":
                    flags |= _U
                if cat == "Nd":
                    flags |= _D
                if ch.isspace():
                    flags |= _S
                if flags:
                    t[cp] = flags
            for lo, hi in _CHAR_WORD_RANGES:
                hi = min(hi, _TABLE_SIZE - 1)
                t[lo : hi + 1] |= _C
            for ch in _PUNCT:
                t[ord(ch)] |= _P
            for ch in _SENTENCE_END:
                t[ord(ch)] |= _E
            for ch in _QUESTION:
                t[ord(ch)] |= _Q
            _table = t
    return _table


# --- stopwords (our own list; case-insensitive) -----------------------------------------
_STOPWORDS_EN = """
a about above after again against all am an and any are as at be because been before being
below between both but by can could did do does doing down during each few for from further
had has have having he her here hers herself him himself his how i if in into is it its itself
just me more most my myself no nor not now of off on once only or other our ours out over own
same she should so some such than that the their theirs them then there these they this those
through to too under until up very was we were what when where which while who whom why will
with would you your yours yourself
""".split()
_STOPWORDS_OTHER = """
der die das und ist nicht ein eine zu mit von den im sich auf für dem des auch es wie als
le la les et est une du en que qui pour dans sur pas au ce il elle sont avec
el los las y por con para lo como más pero sus una
""".split()
_STOPWORDS_CJK = "的了是在和也就都而与着或之其这那我你他她它们不有为以于被把从对到个上说要会" + (
    "のにはをがでともたてしなからまで"
)
_STOPWORDS = frozenset(_STOPWORDS_EN + _STOPWORDS_OTHER + list(_STOPWORDS_CJK))
_CJK_CLASS = "".join(f"\\U{lo:08x}-\\U{hi:08x}" for lo, hi in _CHAR_WORD_RANGES)
# the words of a (lower-cased) text: a CJK/Thai character alone, or a run of other \w
_WORD_RE = re.compile(f"[{_CJK_CLASS}]|[^\\W{_CJK_CLASS}]+")
_EMAIL_RE = re.compile(r"[\w.+-]+@[\w-]+\.[\w.-]*\w")
_URL_RE = re.compile(r"(?:https?|ftp)://", re.IGNORECASE)
_COPYRIGHT = ord("©")

# block-level tags of algorithms.md 2.2 (used for the edge feature block_break)
_BLOCK_TAGS = frozenset(
    """address article aside blockquote body canvas center checkbox dd div dl fieldset figcaption
    figure footer form h1 h2 h3 h4 h5 h6 head header hgroup hr html iframe input li main nav
    noscript ol output p pre radio section select table tbody td textarea tfoot thead tr ul video
    br""".split()
)
_TAG_BITS = {t: 1 << i for i, t in enumerate(sorted(set(PARENT_TAGS) | set(LEAF_TAGS)))}
_FORM_TAGS = ("input",)

# --- block text statistics ------------------------------------------------------------------
# columns of the per-block statistics array
(
    ST_CHARS,
    ST_WORDS,
    ST_WORDLEN,
    ST_STOP,
    ST_CAP,
    ST_PUNCT,
    ST_NUM,
    ST_SENT,
    ST_LINK,
    ST_COPY,
    ST_EMAIL,
    ST_URL,
    ST_YEAR,
    ST_ENDP,
    ST_ENDQ,
) = range(15)
_N_STATS = 15


def _code_points(text: str) -> np.ndarray:
    return np.frombuffer(text.encode("utf-32-le", "surrogatepass"), dtype=np.uint32)


def _segment_sums(values: np.ndarray, bounds: np.ndarray) -> np.ndarray:
    """Sums of ``values`` over [bounds[i], bounds[i+1]) (empty segments give 0)."""
    c = np.concatenate(([0], np.cumsum(values, dtype=np.int64)))
    return c[bounds[1:]] - c[bounds[:-1]]


def _regex_hits(regex: re.Pattern[str], text: str, bounds: np.ndarray) -> np.ndarray:
    starts = [m.start() for m in regex.finditer(text)]
    out = np.zeros(len(bounds) - 1, dtype=np.int64)
    if starts:
        idx = np.searchsorted(bounds, np.asarray(starts), side="right") - 1
        np.add.at(out, idx, 1)
    return out


#: words that are stopwords (not the CJK stop characters, which are counted apart)
STOP_WORDS = frozenset(_STOPWORDS_EN + _STOPWORDS_OTHER)
#: what is stripped from both ends of a word before looking it up
STOP_STRIP = "\"'.,;:!?()[]{}<>«»“”‘’„-–—/|*#"
_SENTINEL = "\u01c2"  # a letter (category Lo) that no block is expected to hold
_STOP_CODES = dict.fromkeys(STOP_WORDS, 1)
_STOP_CODES[_SENTINEL] = 2
_CJK_STOP_CODES = np.array(sorted(ord(ch) for ch in _STOPWORDS_CJK), dtype=np.uint32)


def stopword_words_python(texts: Sequence[str], joined: str, starts: np.ndarray) -> np.ndarray:
    """Per block (int64) its words that are :data:`STOP_WORDS`: ``joined`` (the blocks
    joined by single spaces, block i at ``starts[i]``) lower-cased and split at whitespace,
    :data:`STOP_STRIP` stripped from each word's ends; a sentinel word between the blocks
    (no block holds it) tells them apart. ``_ctextstats.pyx`` has the compiled twin;
    ``stopword_words`` is whichever is available."""
    words = f" {_SENTINEL} ".join(texts).lower().split()
    stripped = map(str.strip, words, itertools.repeat(STOP_STRIP))
    codes = np.fromiter(
        map(_STOP_CODES.get, stripped, itertools.repeat(0)), dtype=np.int8, count=len(words)
    )
    block = np.cumsum(codes == 2)
    return np.bincount(block[codes == 1], minlength=len(texts)).astype(np.int64)


stopword_words = stopword_words_python


def _stopword_counts(texts: Sequence[str], joined: str, starts: np.ndarray) -> np.ndarray:
    """Stopwords per block. Words split at whitespace, punctuation stripped from their
    ends (all C-level: split, map): one pass over every block, a sentinel word between
    them; CJK stop characters are counted on the code points of ``joined`` (the blocks
    joined by single spaces, block i at ``starts[i]``)."""
    if _SENTINEL in joined:  # (never in practice) count block by block
        stop = _STOPWORDS.__contains__
        findall = _WORD_RE.findall
        return np.array([sum(map(stop, findall(t.lower()))) for t in texts], dtype=np.float64)
    out = stopword_words(texts, joined, starts).astype(np.float64)
    if joined.isascii():
        return out
    cps = _code_points(joined)
    cjk = cps >= 0x3040
    if cjk.any():
        hit = np.zeros(len(cps), dtype=bool)
        hit[cjk] = np.isin(cps[cjk], _CJK_STOP_CODES)
        out += _segment_sums(hit, np.append(np.asarray(starts, dtype=np.int64), len(cps)))
    return out


#: the columns of :func:`char_counts_python`, per block
CHAR_COUNT_COLUMNS = (
    "words",
    "word_chars",
    "capitalised",
    "punctuation",
    "digits",
    "sentence_ends",
    "copyright",
    "year",
    "ends_with_punctuation",
    "ends_with_question",
)


def char_counts_python(
    joined: str, starts: np.ndarray, lengths: np.ndarray, table: np.ndarray
) -> np.ndarray:
    """Per block (n x 10, int64) the counts of :data:`CHAR_COUNT_COLUMNS` in the blocks'
    texts joined by single spaces (block i at ``starts[i]``, ``lengths[i]`` long): word
    starts, word characters, capitalised words, punctuation, digits, sentence ends (may
    look past the block's end into the next), and 0/1 for a copyright sign, a year
    1800-2099, a last character that is punctuation, or a question mark. ``table``:
    :func:`_char_table`. ``_ctextstats.pyx`` is the compiled twin; ``char_counts`` is
    whichever is available."""
    n = len(starts)
    out = np.zeros((n, len(CHAR_COUNT_COLUMNS)), dtype=np.int64)
    if n == 0:
        return out
    cps = _code_points(joined)
    flags = np.where(cps < _TABLE_SIZE, table[np.minimum(cps, _TABLE_SIZE - 1)], _W).astype(
        np.uint8
    )
    word = (flags & _W) != 0
    charword = (flags & _C) != 0
    prev_word = np.concatenate(([False], word[:-1]))
    prev_charword = np.concatenate(([False], charword[:-1]))
    word_start = word & (~prev_word | charword | prev_charword)
    upper = (flags & _U) != 0
    space = (flags & _S) != 0
    # sentence boundaries: [.?!;] whitespace [upper/CJK], or a CJK full stop before more text
    end = (flags & _E) != 0
    nxt_space = np.concatenate((space[1:], [False]))
    nxt2 = np.concatenate((upper[2:] | charword[2:], np.zeros(min(len(cps), 2), dtype=bool)))
    sent = end & nxt_space & nxt2
    for ch in _CJK_SENTENCE_END:
        sent |= (cps == ord(ch)) & np.concatenate((word[1:], [False]))
    # sums over [start_i, start_{i+1}): they include the separator, which adds nothing
    seg_bounds = np.append(np.asarray(starts, dtype=np.int64), len(cps))
    out[:, 0] = _segment_sums(word_start, seg_bounds)
    out[:, 1] = _segment_sums(word, seg_bounds)
    out[:, 2] = _segment_sums(word_start & upper, seg_bounds)
    out[:, 3] = _segment_sums((flags & _P) != 0, seg_bounds)
    out[:, 4] = _segment_sums((flags & _D) != 0, seg_bounds)
    out[:, 5] = _segment_sums(sent, seg_bounds)
    out[:, 6] = _segment_sums(cps == _COPYRIGHT, seg_bounds) > 0
    # years 1800-2099: exactly four digits, starting 18, 19 or 20
    digit = (flags & _D) != 0
    if digit.any():
        m = len(cps)
        pad = np.concatenate(([False], digit, [False] * 5))
        start = digit & ~pad[:-6]
        four = start & pad[2 : m + 2] & pad[3 : m + 3] & pad[4 : m + 4] & ~pad[5 : m + 5]
        if four.any():
            pos = np.flatnonzero(four)
            nxt = cps[np.minimum(pos + 1, m - 1)]
            first = cps[pos]
            ok = ((first == 0x31) & ((nxt == 0x38) | (nxt == 0x39))) | (
                (first == 0x32) & (nxt == 0x30)
            )
            if ok.any():
                out[:, 7] = _segment_sums(np.bincount(pos[ok], minlength=m)[:m], seg_bounds) > 0
    # the last character of each non-empty block
    nonempty = lengths > 0
    if nonempty.any():
        last_idx = np.maximum(starts + lengths - 1, 0)
        last_flags = np.where(nonempty, flags[np.minimum(last_idx, len(flags) - 1)], 0)
        out[:, 8] = (last_flags & _P) != 0
        out[:, 9] = (last_flags & _Q) != 0
    return out


char_counts = char_counts_python


def block_text_stats(texts: Sequence[str], link_density: Sequence[float]) -> np.ndarray:
    """Per block the text statistics of algorithms.md 2.3 (float64, n x 15)."""
    n = len(texts)
    st = np.zeros((n, _N_STATS), dtype=np.float64)
    if n == 0:
        return st
    # one string for all blocks, a separator (a space: no word, no sentence) between them
    joined = " ".join(texts)
    lengths = np.array(list(map(len, texts)), dtype=np.int64)
    starts = np.concatenate(([0], np.cumsum(lengths + 1)[:-1]))
    counts = char_counts(joined, starts, lengths, _char_table())
    st[:, ST_CHARS] = np.maximum(lengths, 1)
    st[:, ST_WORDS] = counts[:, 0]
    st[:, ST_WORDLEN] = counts[:, 1]
    st[:, ST_CAP] = counts[:, 2]
    st[:, ST_PUNCT] = counts[:, 3]
    st[:, ST_NUM] = counts[:, 4]
    st[:, ST_SENT] = 1 + counts[:, 5]
    st[:, ST_COPY] = counts[:, 6]
    st[:, ST_YEAR] = counts[:, 7]
    st[:, ST_ENDP] = counts[:, 8]
    st[:, ST_ENDQ] = counts[:, 9]
    st[:, ST_STOP] = _stopword_counts(texts, joined, starts)
    if "@" in joined:
        search = _EMAIL_RE.search
        for i, t in enumerate(texts):
            if "@" in t and search(t):
                st[i, ST_EMAIL] = 1
    if "://" in joined:
        search = _URL_RE.search
        for i, t in enumerate(texts):
            if "://" in t and search(t):
                st[i, ST_URL] = 1
    st[:, ST_LINK] = st[:, ST_CHARS] * np.clip(np.asarray(link_density, dtype=np.float64), 0, 1)
    return st


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


# --- DOM structure --------------------------------------------------------------------------
def _anchor(elements: Sequence[Any]) -> Any:
    """The lowest common ancestor of a block's elements (None if it has none)."""
    if not elements:
        return None
    first = elements[0]
    if len(elements) == 1:
        return first
    chain = [first]
    chain.extend(first.iterancestors())
    index = {id(e): i for i, e in enumerate(chain)}
    best = 0
    for el in elements[1:]:
        e = el
        while e is not None and id(e) not in index:
            e = e.getparent()
        if e is None:
            return chain[-1]
        i = index[id(e)]
        if i > best:
            best = i
    return chain[best]


# --- extension features (ours, not Web2Text's; used when ``extended=True``) -------------
# Words in the class and id attributes of a block's element and its ancestors, and some
# HTML5 sectioning tags above it: the signals rule-based extractors (readability,
# trafilatura) lean on, which Web2Text's features do not see.
# Each group is a list of literals, matched in the lowercased string; a literal starting
# with "^" must not follow a letter a-z, one ending with "$" must not precede one (so "ad"
# is not found in "header" nor "tag" in "stage"). The order is the matching order.
_KEYWORD_GROUPS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("nav", ("nav", "menu", "breadcrumb", "pagination", "pager", "toolbar", "skip")),
    ("footer", ("foot", "copyright", "legal", "disclaimer")),
    ("header", ("header", "masthead", "topbar", "logo")),
    ("sidebar", ("sidebar", "aside", "widget", "rail")),
    ("comment", ("comment", "reply", "respond", "disqus", "discussion")),
    ("share", ("share", "sharing", "social", "facebook", "twitter", "print")),
    (
        "related",
        (
            "related",
            "recommend",
            "popular",
            "trending",
            "teaser",
            "suggest",
            "read-next",
            "readnext",
            "more-stories",
            "morestories",
        ),
    ),
    ("ad", ("^ads$", "^ad$", "advert", "sponsor", "promo", "banner")),
    (
        "content",
        ("article", "content", "post", "entry", "story", "body", "main", "text", "prose"),
    ),
    (
        "meta",
        ("byline", "author", "date", "time", "tags$", "tag$", "categor", "caption", "credit"),
    ),
    (
        "signup",
        (
            "subscri",
            "newsletter",
            "signup",
            "sign-up",
            "login",
            "cookie",
            "consent",
            "modal",
            "popup",
        ),
    ),
)


def _literal_pattern(literal: str) -> str:
    before = "(?<![a-z])" if literal.startswith("^") else ""
    after = "(?![a-z])" if literal.endswith("$") else ""
    return before + re.escape(literal.strip("^$")) + after


#: the Python twin's matcher: leftmost match first, alternatives in table order, and
#: scanning resumes after a match (``_cstructure.keyword_bits`` does the same by hand)
_KW_RE = re.compile(
    "|".join(
        f"(?P<{name}>{'|'.join(_literal_pattern(lit) for lit in literals)})"
        for name, literals in _KEYWORD_GROUPS
    )
)
_KW_BIT = {n: 1 << i for i, (n, _) in enumerate(_KEYWORD_GROUPS)}
_HIDDEN_BIT = 1 << len(_KEYWORD_GROUPS)
_EXT_TAGS = ("nav", "footer", "header", "aside", "article", "main", "form", "figure")
_EXT_TAG_BIT = {t: 1 << (len(_KEYWORD_GROUPS) + 1 + i) for i, t in enumerate(_EXT_TAGS)}
_HIDDEN_STYLE_RE = re.compile(r"display\s*:\s*none|visibility\s*:\s*hidden", re.IGNORECASE)
_kw_cache: dict[str, int] = {}


def keyword_bits_python(key: str) -> int:
    """The keyword groups found in a class / id string, as bits (cached).

    No keyword literal matches whitespace, so the string's matches are those of its
    whitespace-separated words, each scanned alone; words recur from page to page far more
    than whole attribute strings, so they are what the cache keeps (beside the strings).
    ``_cstructure.keyword_bits`` is the compiled twin (no cache: a scan costs less than a
    lookup there); ``keyword_bits`` is whichever is available.
    """
    got = _kw_cache.get(key)
    if got is not None:
        return got
    got = 0
    for word in key.split():
        word_bits = _kw_cache.get(word)
        if word_bits is None:
            word_bits = 0
            for m in _KW_RE.finditer(word.lower()):
                word_bits |= _KW_BIT[m.lastgroup]  # type: ignore[index]
            if len(_kw_cache) < 100_000:
                _kw_cache[word] = word_bits
        got |= word_bits
    if len(_kw_cache) < 100_000:
        _kw_cache[key] = got
    return got


keyword_bits = keyword_bits_python


def _ext_bits(tag: str, cls: Any, keys: list[str], el: Any) -> int:
    """Extension flags of one element with attributes (``keys``)."""
    bits = _EXT_TAG_BIT.get(tag, 0)
    ident = el.get("id") if "id" in keys else None
    if cls or ident:
        bits |= keyword_bits(f"{cls or ''} {ident or ''}")
    if "hidden" in keys or "style" in keys or "aria-hidden" in keys:
        style = el.get("style")
        if (
            "hidden" in keys
            or el.get("aria-hidden") == "true"
            or (style and _HIDDEN_STYLE_RE.search(style))
        ):
            bits |= _HIDDEN_BIT
    return bits


EXT_BLOCK_FEATURES: tuple[str, ...] = tuple(
    [f"anc_class_{n}" for n, _ in _KEYWORD_GROUPS]
    + ["anc_hidden"]
    + [f"anc_tag_{t}" for t in _EXT_TAGS]
    + ["log_depth", "log_parent_blocks", "offset_from_longest", "words_vs_longest"]
)
EXT_EDGE_FEATURES: tuple[str, ...] = tuple(
    [f"differ_class_{n}" for n, _ in _KEYWORD_GROUPS]
    + ["differ_hidden"]
    + [f"differ_tag_{t}" for t in _EXT_TAGS]
)
_N_EXT_BITS = len(_KEYWORD_GROUPS) + 1 + len(_EXT_TAGS)


def _bit_columns(bits: Sequence[int]) -> np.ndarray:
    arr = np.asarray(bits, dtype=np.int64)
    masks = np.int64(1) << np.arange(_N_EXT_BITS, dtype=np.int64)
    return (arr[:, None] & masks[None, :]) != 0


#: what :func:`collapsed_dom_python` returns, in order (per block, per edge, per node)
STRUCTURE_FIELDS = (
    "parent",
    "gp",
    "lca",
    "edge_dist",
    "edge_break",
    "node_first",
    "node_last",
    "node_form",
    "group_tags",
    "leaf_tags",
    "class_path",
    "ext_bits",
    "depth",
    "parent_count",
)


def collapsed_dom_python(blocks: Sequence[Any], root: Any) -> tuple[list[Any], ...]:
    """The collapsed DOM over the blocks, as the lists of :data:`STRUCTURE_FIELDS`.

    Per block: its collapsed parent and grandparent node (-1: none), its leaf tag bits,
    class path hash, extension flags, anchor depth and the parent's block count; per pair
    of adjacent blocks: their lowest common node, tree distance and block break; per node
    (0 is a virtual root, the others elements in pre-order): its first and last block,
    whether a form element lies below it, and its group's tag bits. ``_cstructure.pyx``
    is the compiled twin; ``collapsed_dom`` is whichever is available.
    """
    n = len(blocks)
    # nodes: 0 is a virtual root above everything; others are elements, in pre-order
    node_el: list[Any] = [None]
    node_parent = [-1]
    node_first = [0]
    node_last = [n - 1]
    node_depth = [0]
    node_of: dict[int, int] = {}
    stack_el: list[Any] = []
    stack_id: list[int] = [0]
    anchors = [0] * n
    lca = [0] * max(n - 1, 0)
    leaf_extra_tags = [0] * n
    tag_bits = _TAG_BITS
    for i, block in enumerate(blocks):
        elements = block.elements
        a = _anchor(elements)
        for el in elements:
            tag = el.tag
            if isinstance(tag, str):
                leaf_extra_tags[i] |= tag_bits.get(tag, 0)
        new: list[Any] = []
        e = a
        while e is not None and id(e) not in node_of:
            new.append(e)
            e = e.getparent()
        # keep the stack = the ancestors of e (inclusive)
        if e is None:
            k = 0
        else:
            k = node_depth[node_of[id(e)]]
        while len(stack_el) > k:
            el = stack_el.pop()
            nid = stack_id.pop()
            node_last[nid] = i - 1
            del node_of[id(el)]
        if i > 0:
            lca[i - 1] = stack_id[-1]
        parent_id = stack_id[-1]
        for el in reversed(new):
            nid = len(node_el)
            node_el.append(el)
            node_parent.append(parent_id)
            node_first.append(i)
            node_last.append(i)
            node_depth.append(len(stack_el) + 1)
            node_of[id(el)] = nid
            stack_el.append(el)
            stack_id.append(nid)
            parent_id = nid
        anchors[i] = stack_id[-1]
    while len(stack_el) > 0:
        stack_el.pop()
        node_last[stack_id.pop()] = n - 1
    # the elements stay referenced by node_el, so id() keys remain valid
    m = len(node_el)
    count = [node_last[j] - node_first[j] + 1 for j in range(m)]
    group = list(range(m))  # top node of the collapsed group
    above = [-1] * m  # nearest strict ancestor holding more blocks
    cdepth = [0] * m  # collapsed depth (number of groups above)
    group_tags = [0] * m  # tag bits of each group (at its top node)
    blockdepth = [0] * m  # depth of the deepest block-tag element at or above the node
    path = [0] * m  # hash of the class path (tag.class of node and ancestors)
    ext = [0] * m  # extension flags of the node and its ancestors (class/id words, tags)
    ext_bits = _ext_bits
    ext_tag_bit = _EXT_TAG_BIT.get
    for j in range(1, m):
        p = node_parent[j]
        el = node_el[j]
        tag = el.tag if isinstance(el.tag, str) else ""
        if count[p] == count[j] and p != 0:
            group[j] = group[p]
            above[j] = above[p]
            cdepth[j] = cdepth[p]
        else:
            above[j] = p
            cdepth[j] = cdepth[p] + 1
        group_tags[group[j]] |= tag_bits.get(tag, 0)
        blockdepth[j] = node_depth[j] if tag in _BLOCK_TAGS else blockdepth[p]
        keys = el.keys()
        if keys:
            cls = el.get("class")
            ext[j] = ext[p] | ext_bits(tag, cls, keys, el)
        else:
            cls = None
            ext[j] = ext[p] | ext_tag_bit(tag, 0)
        path[j] = hash((path[p], tag, cls))
    # form elements: mark the nearest node above each, then propagate upwards
    node_form = [False] * m
    if root is not None and n:
        forms = list(root.iter(*_FORM_TAGS))
        if forms:
            index = {id(el): j for j, el in enumerate(node_el) if el is not None}
            for el in forms:
                e = el
                while e is not None and id(e) not in index:
                    e = e.getparent()
                if e is not None:
                    node_form[index[id(e)]] = True
            for j in range(m - 1, 0, -1):
                if node_form[j]:
                    node_form[node_parent[j]] = True
    return collapsed_blocks(
        anchors,
        lca,
        leaf_extra_tags,
        node_first,
        node_last,
        node_depth,
        node_form,
        count,
        group,
        above,
        cdepth,
        group_tags,
        blockdepth,
        path,
        ext,
    )


def collapsed_blocks(
    anchors: list[int],
    lca: list[int],
    leaf_extra_tags: list[int],
    node_first: list[int],
    node_last: list[int],
    node_depth: list[int],
    node_form: list[bool],
    count: list[int],
    group: list[int],
    above: list[int],
    cdepth: list[int],
    group_tags: list[int],
    blockdepth: list[int],
    path: list[int],
    ext: list[int],
) -> tuple[list[Any], ...]:
    """The lists of :data:`STRUCTURE_FIELDS` from the collapsed DOM's node tables (per
    block: its anchor node, its leaf tag bits; per pair of blocks: their lowest common node;
    per node: see :func:`collapsed_dom_python`). Nothing here reads the DOM; the compiled
    twin does the same on its C arrays."""
    n = len(anchors)
    m = len(node_first)
    # per block: parent and grandparent groups
    parent = [-1] * n
    gp = [-1] * n
    leaf_tags = [0] * n
    class_path = [0] * n
    for i in range(n):
        a = anchors[i]
        leaf_tags[i] = leaf_extra_tags[i]
        class_path[i] = path[a]
        if count[a] >= 2:
            p = a
        else:
            if a != 0:
                leaf_tags[i] |= group_tags[group[a]]
            p = above[a] if a != 0 else -1
        if p == 0 and n < 2:
            p = -1
        if p != -1:
            parent[i] = p
            g = above[p] if p != 0 else -1
            gp[i] = g
    # edges: tree distance and block break
    dist = [0] * max(n - 1, 0)
    brk = [False] * max(n - 1, 0)
    for i in range(n - 1):
        lc = lca[i]
        pa, pb = parent[i], parent[i + 1]
        da = cdepth[pa] - cdepth[lc] if pa > 0 else 0
        db = cdepth[pb] - cdepth[lc] if pb > 0 else 0
        dist[i] = da + db + 2
        depth_l = node_depth[lc]
        aa, ab = anchors[i], anchors[i + 1]
        brk[i] = aa == ab or blockdepth[aa] > depth_l or blockdepth[ab] > depth_l
    return (
        parent,
        gp,
        lca,
        dist,
        brk,
        node_first,
        node_last,
        node_form,
        [group_tags[group[j]] for j in range(m)],
        leaf_tags,
        class_path,
        [ext[a] for a in anchors],
        [node_depth[a] for a in anchors],
        [count[p] if p >= 0 else 1 for p in parent],
    )


collapsed_dom = collapsed_dom_python


class _Structure:
    """The collapsed DOM over a page's blocks (see the module docstring)."""

    __slots__ = STRUCTURE_FIELDS

    def __init__(self, blocks: Sequence[Any], root: Any) -> None:
        for name, value in zip(STRUCTURE_FIELDS, collapsed_dom(blocks, root), strict=True):
            setattr(self, name, value)


def _tag_columns(bits: Sequence[int], tags: Sequence[str]) -> np.ndarray:
    arr = np.asarray(bits, dtype=np.int64)
    masks = np.array([_TAG_BITS[t] for t in tags], dtype=np.int64)
    return _pm((arr[:, None] & masks[None, :]) != 0)


def feature_names(extended: bool = False) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The block and edge column names (Web2Text's, plus ours when ``extended``)."""
    if extended:
        return BLOCK_FEATURES + EXT_BLOCK_FEATURES, EDGE_FEATURES + EXT_EDGE_FEATURES
    return BLOCK_FEATURES, EDGE_FEATURES


def binary_masks(extended: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """Which block and edge columns are binary (never standardised)."""
    if not extended:
        return BINARY_BLOCK, BINARY_EDGE
    eb = np.array([n.startswith(("anc_", "differ_")) for n in EXT_BLOCK_FEATURES], dtype=bool)
    ee = np.ones(len(EXT_EDGE_FEATURES), dtype=bool)
    return np.concatenate((BINARY_BLOCK, eb)), np.concatenate((BINARY_EDGE, ee))


_TEXT = attrgetter("text")
_LINK_DENSITY = attrgetter("link_density")


def page_features(doc: Any, extended: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """Raw block features (n x 128) and edge features ((n-1) x 25) of a Document, float32.

    With ``extended``, our extension columns follow (:data:`EXT_BLOCK_FEATURES`,
    :data:`EXT_EDGE_FEATURES`).

    ``doc`` needs ``blocks`` (TextBlocks with ``text``, ``link_density``, ``elements``)
    and ``root`` (the lxml root, may be None). Not standardised: see :class:`Normalizer`.
    """
    blocks = doc.blocks
    n = len(blocks)
    block_names, edge_names = feature_names(extended)
    if n == 0:
        return (
            np.zeros((0, len(block_names)), dtype=np.float32),
            np.zeros((0, len(edge_names)), dtype=np.float32),
        )
    texts = list(map(_TEXT, blocks))
    st = block_text_stats(texts, list(map(_LINK_DENSITY, blocks)))
    s = _Structure(blocks, getattr(doc, "root", None))
    counts = Counter(texts)
    dup = np.fromiter(map(counts.__getitem__, texts), dtype=np.int64, count=n)
    paths = Counter(s.class_path)
    same_path = np.fromiter(map(paths.__getitem__, s.class_path), dtype=np.int64, count=n)
    return assemble(st, dup, same_path, s, extended)


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
        ext_b[:, :_N_EXT_BITS] = _pm(bits)
        ext_b[:, _N_EXT_BITS] = np.log1p(np.asarray(s.depth, dtype=np.float64))
        ext_b[:, _N_EXT_BITS + 1] = np.log(np.asarray(s.parent_count, dtype=np.float64))
        # page-level context the 7-block receptive field cannot see: where the block is
        # relative to the page's longest block, and how long it is compared to it
        words = st[:, ST_WORDS]
        longest = int(np.argmax(words))
        ext_b[:, _N_EXT_BITS + 2] = (np.arange(n) - longest) / n
        ext_b[:, _N_EXT_BITS + 3] = words / max(float(words[longest]), 1.0)
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


class Normalizer:
    """Standardisation of the non-binary columns with means and standard deviations
    measured on the training data (stored with the model)."""

    def __init__(self, block_mean: Any, block_std: Any, edge_mean: Any, edge_std: Any) -> None:
        self.block_mean = np.asarray(block_mean, dtype=np.float32)
        self.block_std = np.asarray(block_std, dtype=np.float32)
        self.edge_mean = np.asarray(edge_mean, dtype=np.float32)
        self.edge_std = np.asarray(edge_std, dtype=np.float32)

    @classmethod
    def fit(cls, blocks: np.ndarray, edges: np.ndarray) -> Normalizer:
        """Means and standard deviations of the non-binary columns (binary: 0 and 1)."""
        binary_block, binary_edge = binary_masks(blocks.shape[1] != len(BLOCK_FEATURES))

        def stats(x: np.ndarray, binary: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
            x = np.asarray(x, dtype=np.float64)
            mean = x.mean(axis=0) if len(x) else np.zeros(x.shape[1])
            std = x.std(axis=0) if len(x) else np.ones(x.shape[1])
            std = np.where(std < 1e-6, 1.0, std)
            mean = np.where(binary, 0.0, mean)
            std = np.where(binary, 1.0, std)
            return mean, std

        bm, bs = stats(blocks, binary_block)
        em, es = stats(edges, binary_edge)
        return cls(bm, bs, em, es)

    def transform(self, blocks: np.ndarray, edges: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        b = ((blocks - self.block_mean) / self.block_std).astype(np.float32)
        e = ((edges - self.edge_mean) / self.edge_std).astype(np.float32)
        return b, e

    def to_dict(self) -> dict[str, list[float]]:
        return {
            "block_mean": [float(v) for v in self.block_mean],
            "block_std": [float(v) for v in self.block_std],
            "edge_mean": [float(v) for v in self.edge_mean],
            "edge_std": [float(v) for v in self.edge_std],
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Normalizer:
        return cls(data["block_mean"], data["block_std"], data["edge_mean"], data["edge_std"])


#: whether the compiled collapsed-DOM pass, keyword scan, character counts and feature
#: assembly (``_cstructure``, ``_ctextstats``, ``_cassemble``, built with ``_csegment``) are in
#: use; imported last, as they read this module's tables
_compiled = compiled_functions(
    __package__,
    ("_cstructure", "collapsed_dom"),
    ("_cstructure", "keyword_bits"),
    ("_ctextstats", "char_counts"),
    ("_ctextstats", "stopword_words"),
    ("_cassemble", "assemble"),
)
COMPILED = _compiled is not None
if _compiled is not None:
    collapsed_dom, keyword_bits, char_counts, stopword_words, assemble = _compiled
