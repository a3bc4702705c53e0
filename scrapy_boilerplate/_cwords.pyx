# cython: language_level=3, boundscheck=False, wraparound=False
"""Compiled twin of ``words.count_blocks_python``: the word statistics of every block, in
one pass over the characters of the separated text instead of a regex and lists per block.

Optional, as ``_csegment``: ``words.py`` uses it when it was built. Same results:
``tests/test_compiled.py`` compares both on every golden and crafted page and on random
texts. Change both together.

A word is a space-separated token holding a letter or a number (``Py_UNICODE_ISALNUM``,
which is what the regex class ``[^\\W_]`` of ``words.py`` tests).
"""

from cpython.mem cimport PyMem_Free, PyMem_Malloc
from cpython.unicode cimport Py_UNICODE_ISALNUM

from .words import ANCHOR_END, ANCHOR_START, LINE_WIDTH

cdef Py_ssize_t _FITS_ONE_LINE = LINE_WIDTH + 1
cdef str _START = ANCHOR_START
cdef str _END = ANCHOR_END
_NO_WORDS = (0, 0, 0, 1)


cdef Py_ssize_t _words(str text, Py_ssize_t start, Py_ssize_t end, Py_ssize_t* lengths,
                       Py_ssize_t count):
    # appends the lengths (UTF-16 units) of the word tokens of text[start:end] to
    # lengths[count:], returns the new count
    cdef Py_ssize_t i, token_len = 0
    cdef bint has_word = False
    cdef Py_UCS4 c
    for i in range(start, end):
        c = text[i]
        if c == 32:  # " ": the only token separator left after _separate_tokens
            if has_word:
                lengths[count] = token_len
                count += 1
            token_len = 0
            has_word = False
        else:
            token_len += 2 if c > 0xFFFF else 1
            if not has_word and Py_UNICODE_ISALNUM(c):
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
    try:
        while True:
            # the block: joined[start:end], up to the next newline
            end = start
            has_marker = False
            block_astral = False
            while end < size:
                c = joined[end]
                if c == 10:
                    break
                if c == 0xE00A:
                    has_marker = True
                elif c > 0xFFFF:
                    block_astral = True
                end += 1
            if not has_marker:
                n = _words(joined, start, end, lengths, 0)
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
                        found = _words(part, 0, len(part), lengths, n) - n
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
