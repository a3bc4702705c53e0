# Helpers shared by the compiled scans of a page's text (_climits.pyx, _cneko.pyx; the
# ASCII lowercase also by filters/_ccomments.pyx): the characters of a str read in
# place, in its own storage (1, 2 or 4 bytes per character).

from libc.stdint cimport uint16_t, uint32_t
from libc.string cimport memchr


cdef extern from "Python.h":
    int PyUnicode_KIND(object text)
    void* PyUnicode_DATA(object text)
    Py_UCS4 PyUnicode_READ(int kind, void* data, Py_ssize_t index) nogil


cdef inline Py_UCS4 ascii_lower(Py_UCS4 c) noexcept nogil:
    # an ASCII capital as its small letter, any other character as it is
    if c >= 65 and c <= 90:
        return <Py_UCS4>(<unsigned int>c + 32)
    return c


cdef inline Py_ssize_t next_ascii(int kind, const void* data, Py_ssize_t i, Py_ssize_t n,
                                  uint32_t ascii) noexcept nogil:
    # the position of the first ``ascii`` character at or after i (n if there is none):
    # a loop of the string's own width, memchr for one byte per character, instead of a
    # read that asks for the width at every character
    cdef const void* found
    cdef const uint16_t* wide
    cdef const uint32_t* wider
    if i >= n:
        return n
    if kind == 1:
        found = memchr(<const char*>data + i, <int>ascii, <size_t>(n - i))
        return n if found == NULL else <Py_ssize_t>(<const char*>found - <const char*>data)
    if kind == 2:
        wide = <const uint16_t*>data
        while i < n and wide[i] != ascii:
            i += 1
        return i
    wider = <const uint32_t*>data
    while i < n and wider[i] != ascii:
        i += 1
    return i
