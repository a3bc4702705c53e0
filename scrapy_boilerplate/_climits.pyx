# cython: language_level=3, boundscheck=False, wraparound=False
"""Compiled twin of ``limits.scan_python``: the same reading of start tags and attributes
(see ``limits.py``), in one pass over the characters instead of a regex match per tag.

Optional, as every twin (``_compiled.py``): ``limits.py`` uses it when it was built.
``tests/compiled/test_climits.py`` compares both on every golden and crafted page and on
random markup. Change both together.
"""

from cpython.unicode cimport Py_UNICODE_ISSPACE

from ._ctext cimport PyUnicode_DATA, PyUnicode_KIND, PyUnicode_READ, ascii_lower as _lower, next_ascii
from .limits import RAW_TEXT_TAGS


cdef inline bint _is_letter(Py_UCS4 c) noexcept nogil:
    return (c >= 65 and c <= 90) or (c >= 97 and c <= 122)


cdef inline Py_ssize_t _after_quote(int kind, void* data, Py_ssize_t i, Py_ssize_t end) noexcept nogil:
    # i is at a quote: the position after its closing quote, or end if it is not closed
    cdef Py_UCS4 quote = PyUnicode_READ(kind, data, i)
    i += 1
    while i < end:
        if PyUnicode_READ(kind, data, i) == quote:
            return i + 1
        i += 1
    return end


cdef tuple _RAW_TEXT_TAGS = tuple(name.encode("ascii") for name in RAW_TEXT_TAGS)


cdef bint _is_raw_text(int kind, void* data, Py_ssize_t start, Py_ssize_t end):
    # whether html[start:end] is the name of a raw-text element (ASCII letters, any case)
    cdef bytes name
    cdef Py_ssize_t k
    for name in _RAW_TEXT_TAGS:
        if len(name) != end - start:
            continue
        for k in range(end - start):
            if _lower(PyUnicode_READ(kind, data, start + k)) != <Py_UCS4>name[k]:
                break
        else:
            return True
    return False


cdef Py_ssize_t _end_tag(int kind, void* data, Py_ssize_t n, Py_ssize_t i,
                         Py_ssize_t name_start, Py_ssize_t name_len):
    # the position of the next "</" + the name (ASCII, any case) at or after i, or n
    cdef Py_ssize_t k
    while True:
        i = next_ascii(kind, data, i, n, 60)  # "<"
        if i + 1 + name_len >= n:
            break
        if PyUnicode_READ(kind, data, i + 1) == 47:
            for k in range(name_len):
                if _lower(PyUnicode_READ(kind, data, i + 2 + k)) != _lower(PyUnicode_READ(kind, data, name_start + k)):
                    break
            else:
                return i
        i += 1
    return n


def scan(str html, Py_ssize_t max_tags, Py_ssize_t max_attributes):
    cdef int kind = PyUnicode_KIND(html)
    cdef void* data = PyUnicode_DATA(html)
    cdef Py_ssize_t n = len(html)
    cdef Py_ssize_t i = 0, j, k, start, end, name_start = 0, count = 0, seen, i_name, name_end
    cdef Py_UCS4 c
    cuts = []
    while True:
        i = next_ascii(kind, data, i, n, 60)  # "<"
        if i + 1 >= n:
            break
        if (i + 3 < n and PyUnicode_READ(kind, data, i + 1) == 33 and PyUnicode_READ(kind, data, i + 2) == 45
                and PyUnicode_READ(kind, data, i + 3) == 45):  # "<!--": on after the next "-->"
            k = i + 4
            while k + 2 < n and not (PyUnicode_READ(kind, data, k) == 45 and PyUnicode_READ(kind, data, k + 1) == 45
                                     and PyUnicode_READ(kind, data, k + 2) == 62):
                k += 1
            i = k + 3 if k + 2 < n else n
            continue
        if not _is_letter(PyUnicode_READ(kind, data, i + 1)):
            i += 1
            continue
        if count == max_tags:
            return cuts, i
        count += 1
        i_name = i + 1
        j = i + 2
        while j < n:  # the name
            c = PyUnicode_READ(kind, data, j)
            if Py_UNICODE_ISSPACE(c) or c == 47 or c == 62:  # "/", ">"
                break
            j += 1
        name_end = j
        start = j
        seen = 0
        while j < n:  # the attributes, up to ">"
            c = PyUnicode_READ(kind, data, j)
            if c == 62:
                break
            if Py_UNICODE_ISSPACE(c) or c == 47:
                j += 1
                continue
            seen += 1
            if seen == max_attributes + 1:
                name_start = j
            j += 1  # the name's first character may be anything else ("=" too)
            while j < n:
                c = PyUnicode_READ(kind, data, j)
                if Py_UNICODE_ISSPACE(c) or c == 47 or c == 62 or c == 61:
                    break
                j += 1
            k = j  # then, after spaces and "=", a value
            while k < n and Py_UNICODE_ISSPACE(PyUnicode_READ(kind, data, k)):
                k += 1
            if k < n and PyUnicode_READ(kind, data, k) == 61:
                k += 1
                while k < n and Py_UNICODE_ISSPACE(PyUnicode_READ(kind, data, k)):
                    k += 1
                if k < n and (PyUnicode_READ(kind, data, k) == 34 or PyUnicode_READ(kind, data, k) == 39):
                    k = _after_quote(kind, data, k, n)
                else:
                    while k < n:
                        c = PyUnicode_READ(kind, data, k)
                        if Py_UNICODE_ISSPACE(c) or c == 62:
                            break
                        k += 1
                j = k
        end = j
        if seen > max_attributes and end - start >= 2 * max_attributes - 1:
            cuts.append((name_start, end))
        i = end + 1
        if _is_raw_text(kind, data, i_name, name_end):  # its text holds no markup
            i = _end_tag(kind, data, n, min(i, n), i_name, name_end - i_name)
    return cuts, -1
