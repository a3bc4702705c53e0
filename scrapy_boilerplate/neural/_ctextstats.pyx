# cython: language_level=3, boundscheck=False, wraparound=False
"""Compiled twins of ``textstats.char_counts_python`` (the per-block character statistics
of the Web2Text features in one pass over the characters, instead of some thirty numpy
passes over an array of code points) and ``textstats.stopword_words_python`` (stopwords per
block, without a string for every ASCII word: those are looked up in a C table).

Optional, as every twin (``_compiled.py``): ``textstats.py`` uses it when it was built.
Same counts: ``tests/compiled/test_ctextstats.py`` compares both on every golden and
crafted page and on random texts. Change both together.
"""

import numpy as np

from cpython.unicode cimport Py_UNICODE_ISSPACE

from .textstats import (
    STOP_STRIP,
    STOP_WORDS,
    _C,
    _CJK_SENTENCE_END,
    _COPYRIGHT,
    _D,
    _E,
    _P,
    _Q,
    _S,
    _TABLE_SIZE,
    _U,
    _W,
    CHAR_COUNT_COLUMNS,
)


cdef extern from "Python.h":
    int PyUnicode_KIND(object text)
    void* PyUnicode_DATA(object text)
    Py_UCS4 PyUnicode_READ(int kind, void* data, Py_ssize_t index) nogil
    object PyUnicode_Substring(object text, Py_ssize_t start, Py_ssize_t end)


cdef unsigned char W = _W, C = _C, U = _U, D = _D, P = _P, E = _E, S = _S, Q = _Q
cdef Py_UCS4 TABLE_SIZE = _TABLE_SIZE, COPYRIGHT = _COPYRIGHT
cdef Py_UCS4 CJK_END[8]
cdef int N_CJK_END = 0
for _char in sorted(set(_CJK_SENTENCE_END)):
    CJK_END[N_CJK_END] = ord(_char)
    N_CJK_END += 1
assert CHAR_COUNT_COLUMNS == (
    "words", "word_chars", "capitalised", "punctuation", "digits", "sentence_ends",
    "copyright", "year", "ends_with_punctuation", "ends_with_question",
)


cdef inline unsigned char _flags(const unsigned char[::1] table, int kind, void* data,
                                 Py_ssize_t i, Py_ssize_t size) noexcept nogil:
    # the table's flags of the character at i (0 past the end; plain word above the table)
    if i >= size:
        return 0
    cdef Py_UCS4 c = PyUnicode_READ(kind, data, i)
    return table[c] if c < TABLE_SIZE else W


cdef inline bint _is_digit(const unsigned char[::1] table, int kind, void* data,
                           Py_ssize_t i, Py_ssize_t size) noexcept nogil:
    return i >= 0 and (_flags(table, kind, data, i, size) & D) != 0


def char_counts(str joined, starts, lengths, table):
    """``textstats.char_counts_python``, compiled (same arguments, same array)."""
    cdef Py_ssize_t n = len(starts), size = len(joined), i, b, k, end
    cdef const long long[::1] start = np.ascontiguousarray(starts, dtype=np.int64)
    cdef const long long[::1] length = np.ascontiguousarray(lengths, dtype=np.int64)
    cdef const unsigned char[::1] flags_of = table
    out = np.zeros((n, 10), dtype=np.int64)
    cdef long long[:, ::1] counts = out
    cdef int kind = PyUnicode_KIND(joined)
    cdef void* data = PyUnicode_DATA(joined)
    cdef unsigned char f, prev = 0, last
    cdef bint word, prev_word = False, charword, prev_charword = False, start_word, sent
    cdef Py_UCS4 c, first, second
    if n == 0:
        return out
    with nogil:
        b = 0
        # the next block starts at start[b + 1]; the last block runs to the end of the text
        end = start[1] if n > 1 else size
        for i in range(size):
            while i >= end:
                b += 1
                end = start[b + 1] if b + 1 < n else size
            c = PyUnicode_READ(kind, data, i)
            f = flags_of[c] if c < TABLE_SIZE else W
            word = (f & W) != 0
            charword = (f & C) != 0
            start_word = word and (not prev_word or charword or prev_charword)
            if start_word:
                counts[b, 0] += 1
                if f & U:
                    counts[b, 2] += 1
            if word:
                counts[b, 1] += 1
            if f & P:
                counts[b, 3] += 1
            if f & D:
                counts[b, 4] += 1
                # a year: exactly four digits, 18xx, 19xx or 20xx
                if (
                    not _is_digit(flags_of, kind, data, i - 1, size)
                    and _is_digit(flags_of, kind, data, i + 1, size)
                    and _is_digit(flags_of, kind, data, i + 2, size)
                    and _is_digit(flags_of, kind, data, i + 3, size)
                    and not _is_digit(flags_of, kind, data, i + 4, size)
                ):
                    second = PyUnicode_READ(kind, data, i + 1)
                    if (c == 0x31 and (second == 0x38 or second == 0x39)) or (
                        c == 0x32 and second == 0x30
                    ):
                        counts[b, 7] = 1
            # a sentence ends at [.?!;] + whitespace + an upper-case or CJK character, or
            # at a CJK full stop before a word character
            sent = False
            if f & E:
                if (_flags(flags_of, kind, data, i + 1, size) & S) and (
                    _flags(flags_of, kind, data, i + 2, size) & (U | C)
                ):
                    sent = True
            if not sent and (_flags(flags_of, kind, data, i + 1, size) & W):
                for k in range(N_CJK_END):
                    if c == CJK_END[k]:
                        sent = True
                        break
            if sent:
                counts[b, 5] += 1
            if c == COPYRIGHT:
                counts[b, 6] = 1
            prev_word = word
            prev_charword = charword
        # the flags of each non-empty block's last character
        for b in range(n):
            if length[b] > 0:
                last = _flags(flags_of, kind, data, start[b] + length[b] - 1, size)
                counts[b, 8] = (last & P) != 0
                counts[b, 9] = (last & Q) != 0
    return out


cdef frozenset _STOP_WORDS = STOP_WORDS
# lower() never makes a text shorter, so a longer word cannot be a stopword
cdef Py_ssize_t _LONGEST_STOP_WORD = max(map(len, STOP_WORDS))
cdef Py_UCS4 _STRIP[64]
cdef int _N_STRIP = 0
for _char in STOP_STRIP:
    _STRIP[_N_STRIP] = ord(_char)
    _N_STRIP += 1


# the ASCII stopwords as C strings, bucketed by length and first character, so that an ASCII
# word is looked up without making a string of it (most words of most pages are ASCII)
cdef enum:
    MAX_STOP = 1024
cdef char _stop_text[MAX_STOP][16]
cdef int _bucket_first[16][128]
cdef int _bucket_count[16][128]
cdef int _n_stop = 0


cdef void _load_ascii_stopwords() except *:
    global _n_stop
    cdef int length, first
    # one bucket = one run of the table
    words = sorted((w for w in STOP_WORDS if w.isascii()), key=lambda w: (len(w), w[0]))
    if len(words) > MAX_STOP or _LONGEST_STOP_WORD >= 16:
        raise ValueError("stopword table: too many or too long stopwords")
    for word in words:
        length, first = len(word), ord(word[0])
        if _bucket_count[length][first] == 0:
            _bucket_first[length][first] = _n_stop
        _bucket_count[length][first] += 1
        data = word.encode("ascii")
        for k in range(length):
            _stop_text[_n_stop][k] = data[k]
        _n_stop += 1


_load_ascii_stopwords()


cdef inline int _ascii_stopword(int kind, void* data, Py_ssize_t first,
                                Py_ssize_t last) noexcept nogil:
    # 1: [first, last) is an ASCII stopword once lower-cased; 0: it is not; -1: it holds
    # non-ASCII characters (whose lower case Python must decide: "\u212a" is "k")
    cdef char word[16]
    cdef Py_ssize_t length = last - first, k
    cdef unsigned int c
    cdef int b, j
    for k in range(length):
        c = <unsigned int>PyUnicode_READ(kind, data, first + k)
        if c >= 128:
            return -1
        if 65 <= c <= 90:
            c += 32
        word[k] = <char>c
    b = <unsigned char>word[0]
    for j in range(_bucket_first[length][b], _bucket_first[length][b] + _bucket_count[length][b]):
        k = 0
        while k < length and _stop_text[j][k] == word[k]:
            k += 1
        if k == length:
            return 1
    return 0


cdef inline bint _stripped(Py_UCS4 c) noexcept nogil:
    cdef int k
    for k in range(_N_STRIP):
        if c == _STRIP[k]:
            return True
    return False


def stopword_words(texts, str joined, starts):
    """``textstats.stopword_words_python``, compiled (same arguments, same array)."""
    cdef Py_ssize_t n = len(starts), size = len(joined), i, b = 0, end, first, last
    cdef const long long[::1] start = np.ascontiguousarray(starts, dtype=np.int64)
    cdef int found
    out = np.zeros(n, dtype=np.int64)
    cdef long long[::1] counts = out
    cdef int kind = PyUnicode_KIND(joined)
    cdef void* data = PyUnicode_DATA(joined)
    if n == 0:
        return out
    end = start[1] if n > 1 else size
    i = 0
    while i < size:
        if Py_UNICODE_ISSPACE(PyUnicode_READ(kind, data, i)):
            i += 1
            continue
        # a word: [first, i), split at whitespace as str.split() splits
        first = i
        while i < size and not Py_UNICODE_ISSPACE(PyUnicode_READ(kind, data, i)):
            i += 1
        while first >= end:  # the block the word lies in (blocks hold whole words)
            b += 1
            end = start[b + 1] if b + 1 < n else size
        last = i
        while first < last and _stripped(PyUnicode_READ(kind, data, first)):
            first += 1
        while last > first and _stripped(PyUnicode_READ(kind, data, last - 1)):
            last -= 1
        if 0 < last - first <= _LONGEST_STOP_WORD:
            found = _ascii_stopword(kind, data, first, last)
            if found == 1 or (
                found == -1 and PyUnicode_Substring(joined, first, last).lower() in _STOP_WORDS
            ):
                counts[b] += 1
    return out
