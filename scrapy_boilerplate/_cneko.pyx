# cython: language_level=3, boundscheck=False, wraparound=False
"""Compiled twin of ``neko.rewrite_tags_python``: the same rewrites of ``</body>``,
``</html>``, stray ``</p>`` and unclosed ``<embed>`` (see ``neko.py``), found in one pass
over the characters instead of a regex search and a Python step per ``<p``.

The rare decisions (whether a stray ``</p>`` sits in a comment, script or style; whether
an ``<embed>`` is closed) call the Python original's helpers. Optional, as every twin
(``_compiled.py``); ``tests/compiled/test_cneko.py`` compares both on every golden and
crafted page and on random markup. Change both together.
"""

from cpython.unicode cimport Py_UNICODE_ISALNUM, Py_UNICODE_ISSPACE

from ._ctext cimport PyUnicode_DATA, PyUnicode_KIND, PyUnicode_READ, ascii_lower as _lower, next_ascii
from .neko import _EMBED_CLOSED, _MARKED_EMBED, inside_raw_text, raw_text_marks


cdef inline bint _word_at(int kind, void* data, Py_ssize_t n, Py_ssize_t i, const char* word) noexcept:
    # whether html[i:] starts with the lowercase ASCII ``word``, in any case
    cdef Py_ssize_t k = 0
    while word[k] != 0:
        if i + k >= n or _lower(PyUnicode_READ(kind, data, i + k)) != <Py_UCS4>word[k]:
            return False
        k += 1
    return True


cdef inline bint _ends_p(int kind, void* data, Py_ssize_t n, Py_ssize_t i) noexcept:
    # the lookahead after a p: whitespace, ">" or "/" (not the end of the page)
    cdef Py_UCS4 c
    if i >= n:
        return False
    c = PyUnicode_READ(kind, data, i)
    return Py_UNICODE_ISSPACE(c) or c == 62 or c == 47


cdef inline Py_ssize_t _end_of_closing(int kind, void* data, Py_ssize_t n, Py_ssize_t i) noexcept:
    # after "</body" or "</html": the position after "\s*>", or -1
    while i < n and Py_UNICODE_ISSPACE(PyUnicode_READ(kind, data, i)):
        i += 1
    if i < n and PyUnicode_READ(kind, data, i) == 62:
        return i + 1
    return -1


def rewrite_tags(str html):
    cdef int kind = PyUnicode_KIND(html)
    cdef void* data = PyUnicode_DATA(html)
    cdef Py_ssize_t n = len(html)
    cdef Py_ssize_t i = 0, start, resume, gt, pos = 0, end
    cdef Py_ssize_t gt_from = -1, gt_found = -1  # the last search for ">" (as _NextFind)
    cdef bint paragraph_open = False, closing, closed
    cdef Py_UCS4 c
    cdef list pieces = []
    cdef dict closed_after = {}
    marks = None
    while True:
        i = next_ascii(kind, data, i, n, 60)  # "<"
        if i >= n:
            break
        start = i
        if i + 1 >= n:
            break
        c = PyUnicode_READ(kind, data, i + 1)
        closing = c == 47  # "/"
        if closing:
            if _word_at(kind, data, n, i + 2, b"body") or _word_at(kind, data, n, i + 2, b"html"):
                end = _end_of_closing(kind, data, n, i + 6)
                if end < 0:
                    i += 1
                    continue
                pieces.append(html[pos:start])
                pos = i = end
                continue
            if not (i + 2 < n and _lower(PyUnicode_READ(kind, data, i + 2)) == 112
                    and _ends_p(kind, data, n, i + 3)):
                i += 1
                continue
            resume = i + 3
        elif _lower(c) == 112 and _ends_p(kind, data, n, i + 2):  # <p
            paragraph_open = True
            i += 2
            continue
        elif _word_at(kind, data, n, i + 1, b"embed") and (
                i + 6 >= n or not (Py_UNICODE_ISALNUM(PyUnicode_READ(kind, data, i + 6))
                                   or PyUnicode_READ(kind, data, i + 6) == 95)):
            resume = i + 6
        else:
            i += 1
            continue
        # a </p or an <embed: up to its ">"
        if gt_from >= 0 and gt_from <= resume and (gt_found < 0 or gt_found >= resume):
            gt = gt_found
        else:
            gt_from = resume
            gt = gt_found = html.find(">", resume)
        if gt < 0:
            break  # no ">" after here: no tag left to rewrite
        if closing:  # a whole </p ...>
            resume = gt + 1
            if not paragraph_open:
                if marks is None:
                    marks = raw_text_marks(html)
                if not inside_raw_text(marks, start):
                    pieces.append(html[pos:start])
                    pieces.append("<p></p>")
                    pos = resume
            paragraph_open = False
        else:  # <embed
            known = closed_after.get(gt)
            if known is None:
                closed = _EMBED_CLOSED.match(html, gt + 1) is not None
                closed_after[gt] = closed
            else:
                closed = known
            if not closed:
                pieces.append(html[pos:start])
                pieces.append(_MARKED_EMBED)
                pos = resume
        i = resume
    if not pieces:
        return html
    pieces.append(html[pos:])
    return "".join(pieces)
