# cython: language_level=3, boundscheck=False, wraparound=False
"""Compiled twins of ``words.separate_tokens_python`` (a space at every token boundary) and
``words.count_blocks_python`` (the word statistics of every block): each one pass over the
characters instead of regexes and lists per block.

Optional, as every twin (``_compiled.py``): ``words.py`` uses it when it was built. Same
results: ``tests/compiled/test_cwords.py`` compares both on every golden and crafted page
and on random texts. Change both together.

A word is a space-separated token holding a letter or a number (``Py_UNICODE_ISALNUM``,
which is what the regex class ``[^\\W_]`` of ``words.py`` tests).
"""

import re

from cpython.mem cimport PyMem_Free, PyMem_Malloc
from cpython.unicode cimport Py_UNICODE_ISALNUM

from ._unicode_tables import JAVA_WORD_ASTRAL, JAVA_WORD_BMP
from .words import _GLUE, _SEPARATORS, ANCHOR_END, ANCHOR_START, CJK_CHARACTERS, LINE_WIDTH


cdef extern from "Python.h":
    object PyUnicode_New(Py_ssize_t size, Py_UCS4 maxchar)
    int PyUnicode_KIND(object text)
    void* PyUnicode_DATA(object text)
    void PyUnicode_WRITE(int kind, void* data, Py_ssize_t index, Py_UCS4 value)
    Py_UCS4 PyUnicode_READ(int kind, const void* data, Py_ssize_t index)

cdef Py_ssize_t _FITS_ONE_LINE = LINE_WIDTH + 1
# Py_UNICODE_ISALNUM of the ASCII characters, looked up (it asks up to four tables)
cdef bint _ASCII_ALNUM[128]
for _c in range(128):
    _ASCII_ALNUM[_c] = chr(_c).isalnum()
cdef str _START = ANCHOR_START
cdef str _END = ANCHOR_END
_NO_WORDS = (0, 0, 0, 1)


cdef Py_ssize_t _words(int kind, const void* data, Py_ssize_t start, Py_ssize_t end,
                       Py_ssize_t* lengths, Py_ssize_t count) noexcept:
    # appends the lengths (UTF-16 units) of the word tokens of the characters start..end
    # of a str's data (of its kind) to lengths[count:], returns the new count. The
    # characters are read in the str's own width (the kind is the same in every step of
    # the loop: the compiler takes the switch out of it), not through text[i]
    cdef Py_ssize_t i, token_len = 0
    cdef bint has_word = False
    cdef Py_UCS4 c
    for i in range(start, end):
        c = PyUnicode_READ(kind, data, i)
        if c == 32:  # " ": the only token separator left after _separate_tokens
            if has_word:
                lengths[count] = token_len
                count += 1
            token_len = 0
            has_word = False
        else:
            token_len += 2 if c > 0xFFFF else 1
            if not has_word and (
                _ASCII_ALNUM[c] if c < 128 else Py_UNICODE_ISALNUM(c)
            ):
                has_word = True
    if has_word:
        lengths[count] = token_len
        count += 1
    return count


cdef tuple _wrap_lines(Py_ssize_t* lengths, Py_ssize_t n):
    # words.wrap_lines: greedy 80-column lines; (wraps, first word of the last line).
    # ends[k] = sum(lengths[:k]) + k; the bisections of wrap_lines become forward scans.
    cdef Py_ssize_t limit = _FITS_ONE_LINE
    cdef Py_ssize_t* ends = <Py_ssize_t*>PyMem_Malloc((n + 1) * sizeof(Py_ssize_t))
    if ends is NULL:
        raise MemoryError()
    cdef Py_ssize_t k, j, wraps = 0, start = 0, bound
    try:
        ends[0] = 0
        for k in range(n):
            ends[k + 1] = ends[k] + lengths[k] + 1
        if ends[n] <= limit:
            return 0, 0
        j = _bisect_right(ends, n + 1, limit, 1) - 1
        start = j
        while j < n:
            wraps += 1
            start = j
            j = _bisect_right(ends, n + 1, ends[start] + limit, start + 2) - 1
        return wraps, start
    finally:
        PyMem_Free(ends)


cdef inline Py_ssize_t _bisect_right(Py_ssize_t* a, Py_ssize_t size, Py_ssize_t x,
                                     Py_ssize_t lo) noexcept:
    # bisect.bisect_right(a[:size], x, lo)
    cdef Py_ssize_t hi = size, mid
    while lo < hi:
        mid = (lo + hi) // 2
        if x < a[mid]:
            hi = mid
        else:
            lo = mid + 1
    return lo


def has_astral(str text):
    """``words.has_astral_python``, compiled: a str holds a character above U+FFFF
    exactly when it is stored four bytes per character (PEP 393 keeps each string in
    the narrowest width its characters fit)."""
    return PyUnicode_KIND(text) == 4


def count_blocks(str joined, bint astral):
    """``words.count_blocks_python``, compiled (same arguments, same list)."""
    cdef list out = []
    cdef Py_ssize_t size = len(joined)
    cdef Py_ssize_t* lengths = <Py_ssize_t*>PyMem_Malloc((size + 1) * sizeof(Py_ssize_t))
    if lengths is NULL:
        raise MemoryError()
    cdef Py_ssize_t start = 0, end, i, n, linked, found, p_start
    cdef bint in_anchor = False, has_marker, block_astral
    cdef Py_UCS4 c
    cdef int kind = PyUnicode_KIND(joined)
    cdef const void* data = PyUnicode_DATA(joined)
    try:
        while True:
            # the block: joined[start:end], up to the next newline
            end = start
            has_marker = False
            block_astral = False
            while end < size:
                c = PyUnicode_READ(kind, data, end)
                if c == 10:
                    break
                if c == 0xE00A:
                    has_marker = True
                elif c > 0xFFFF:
                    block_astral = True
                end += 1
            if not has_marker:
                n = _words(kind, data, start, end, lengths, 0)
                linked = n if in_anchor else 0
            else:
                # markers are tokens of their own: a piece after a start marker is linked
                # up to the next end marker (split as words.py splits: starts first)
                n = 0
                linked = 0
                for i, piece in enumerate(joined[start:end].split(_START)):
                    if i:
                        in_anchor = True
                    for j, part in enumerate(piece.split(_END)):
                        if j:
                            in_anchor = False
                        found = _words(
                            PyUnicode_KIND(part), PyUnicode_DATA(part), 0, len(part), lengths, n
                        ) - n
                        n += found
                        if in_anchor:
                            linked += found
            if n == 0:
                out.append(_NO_WORDS)
            elif end - start < _FITS_ONE_LINE and not (astral and block_astral):
                out.append((n, linked, n, 1))
            else:
                total = n
                for i in range(n):
                    total += lengths[i]
                if total <= _FITS_ONE_LINE:
                    out.append((n, linked, n, 1))
                else:
                    wraps, last_line_start = _wrap_lines(lengths, n)
                    if wraps == 0:
                        out.append((n, linked, n, 1))
                    else:
                        out.append((n, linked, last_line_start, wraps))
            if end >= size:
                return out
            start = end + 1
    finally:
        PyMem_Free(lengths)


# -- token separation ------------------------------------------------------------------------
# The class of each BMP character, from the very regex classes words.py uses: N (neither a
# word character, glue nor a separator), W (a Java word character), O (glue, a separator or
# a newline: no split next to it); CJK marks the characters that are tokens of their own.
cdef enum:
    N = 0
    W = 1
    O = 2
    CJK = 4
cdef unsigned char _CLASS[0x10000]
cdef Py_UCS4 _INVISIBLE_SEPARATOR = 0x2063
_is_word_astral = re.compile(f"[{JAVA_WORD_ASTRAL}]").match
_is_cjk_astral = re.compile(f"[{CJK_CHARACTERS}]").match


def _fill_classes():
    bmp = "".join(map(chr, range(0x10000)))
    cdef Py_ssize_t i
    for i in range(0x10000):
        _CLASS[i] = N
    for pattern, value in ((f"[{JAVA_WORD_BMP}]+", W), (f"[{CJK_CHARACTERS}]+", CJK)):
        for match in re.finditer(pattern, bmp):
            for i in range(match.start(), match.end()):
                _CLASS[i] |= value
    for c in _GLUE.replace("\\", "") + _SEPARATORS + "\n":
        _CLASS[ord(c)] = (_CLASS[ord(c)] & CJK) | O


_fill_classes()


cdef inline unsigned char _class_of(Py_UCS4 c):
    if c < 0x10000:
        return _CLASS[c]
    cdef str char = chr(c)
    return (W if _is_word_astral(char) is not None else N) | (
        CJK if _is_cjk_astral(char) is not None else 0
    )


def separate_tokens(str text, bint cjk):
    """``words.separate_tokens_python``, compiled: a space between every word character and
    other character that touch (glue and separators excepted), around every CJK character
    when ``cjk``, and in place of every invisible separator (U+2063)."""
    cdef Py_ssize_t size = len(text), i, out_size = 0
    cdef Py_UCS4 c, maxchar = 0
    cdef unsigned char k, prev
    cdef bint writing = False, changed = False
    cdef int kind = 0
    cdef void* data = NULL
    cdef int text_kind = PyUnicode_KIND(text)
    cdef const void* text_data = PyUnicode_DATA(text)
    cdef object out = None
    if text.isascii():
        cjk = False  # no CJK character to space out
    # the first pass measures the result (its length and widest character), the second
    # writes it; a text with nothing to change is returned as it is
    while True:
        out_size = 0
        prev = O
        for i in range(size):
            c = PyUnicode_READ(text_kind, text_data, i)
            k = _class_of(c)
            if cjk and k & CJK:
                if writing:
                    PyUnicode_WRITE(kind, data, out_size, 32)
                    PyUnicode_WRITE(kind, data, out_size + 1, c)
                    PyUnicode_WRITE(kind, data, out_size + 2, 32)
                else:
                    changed = True
                    if c > maxchar:
                        maxchar = c
                out_size += 3
                prev = O
                continue
            k &= ~CJK
            if (k == W and prev == N) or (k == N and prev == W):
                if writing:
                    PyUnicode_WRITE(kind, data, out_size, 32)
                changed = True
                out_size += 1
            if c == _INVISIBLE_SEPARATOR:
                c = 32
                changed = True
            if writing:
                PyUnicode_WRITE(kind, data, out_size, c)
            elif c > maxchar:
                maxchar = c
            out_size += 1
            prev = k
        if writing:
            return out
        if not changed:
            return text
        if maxchar < 32:
            maxchar = 32  # an inserted space
        out = PyUnicode_New(out_size, maxchar)
        kind = PyUnicode_KIND(out)
        data = PyUnicode_DATA(out)
        writing = True
