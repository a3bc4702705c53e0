"""Per-block text statistics of the Web2Text features (algorithms.md 2.3): characters,
words, stopwords, capitals, punctuation, digits, sentences, and flags for a copyright sign,
an e-mail address, a URL and a year.

``_ctextstats.pyx`` is the compiled twin of :func:`char_counts_python` and
:func:`stopword_words_python`; ``char_counts`` and ``stopword_words`` are whichever is in
use.
"""

from __future__ import annotations

import itertools
import re
import threading
import unicodedata
from collections.abc import Sequence

import numpy as np

from .._compiled import use_twin

__all__ = [
    "CHAR_COUNT_COLUMNS",
    "COMPILED",
    "STOP_STRIP",
    "STOP_WORDS",
    "block_text_stats",
    "char_counts",
    "char_counts_python",
    "has_email",
    "stopword_words",
    "stopword_words_python",
]

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
    """uint8 flags per code point (built once per process)."""
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
# an e-mail address, ``[\w.+-]+@[\w-]+\.[\w.-]*\w``, found from each "@" (see has_email)
_EMAIL_DOMAIN = re.compile(r"@[\w-]+\.[\w.-]*\w").match
_EMAIL_LOCAL = re.compile(r"[\w.+-]").match
_URL_RE = re.compile(r"(?:https?|ftp)://", re.IGNORECASE)
_COPYRIGHT = ord("©")

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


def has_email(text: str) -> bool:
    r"""Whether ``text`` holds an e-mail address (``[\w.+-]+@[\w-]+\.[\w.-]*\w``).

    Tried from each "@" rather than searched: a search for the pattern runs the local part
    to the end of every long run that holds no "@", from each of its characters (quadratic
    in the run, e.g. ``"a@" + "a-" * 50_000``). From an "@", the domain part cannot run past
    the next "@", so the whole text is read about once.
    """
    at = text.find("@", 1)
    while at > 0:
        if _EMAIL_LOCAL(text, at - 1) and _EMAIL_DOMAIN(text, at):
            return True
        at = text.find("@", at + 1)
    return False


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
        for i, t in enumerate(texts):
            if "@" in t and has_email(t):
                st[i, ST_EMAIL] = 1
    if "://" in joined:
        search = _URL_RE.search
        for i, t in enumerate(texts):
            if "://" in t and search(t):
                st[i, ST_URL] = 1
    st[:, ST_LINK] = st[:, ST_CHARS] * np.clip(np.asarray(link_density, dtype=np.float64), 0, 1)
    return st


#: whether the compiled character counts and stopword lookups (``_ctextstats``) are in use;
#: looked up last, as the twin reads this module's tables
COMPILED = use_twin(globals(), "char_counts", "stopword_words")
