# cython: language_level=3, boundscheck=False, wraparound=False
"""Compiled twin of ``comments.comment_sections_python``: the same sections for the same
elements, climbing libxml2's parent pointers and reading ``class`` and ``id`` in place.

An ancestor is handed to the Python ``is_comment_section`` (the one decision, made as
the original makes it) only when one of the two values may name a comment container:
it holds one of the needles of ``comments._MAYBE`` in any ASCII case, or any character
beyond ASCII (where a case-insensitive match may also fold, as the long s or the Kelvin
sign do). Most ancestors are rejected without an lxml element.

Optional, as every twin (``_compiled.py``); ``tests/compiled/test_ccomments.py``
compares both on every golden and crafted page and on random markup. Change both
together.
"""

from libc.string cimport strlen

from lxml.includes cimport tree
from lxml.includes.etreepublic cimport _Document, _Element, elementFactory, import_lxml__etree

from .._cnodes cimport find_attribute, parent_element
from .._ctext cimport ascii_lower

from .comments import _MAYBE_PIECES, is_comment_section

import_lxml__etree()

# the pieces of comments._MAYBE (lowercase ASCII)
cdef tuple _NEEDLES = tuple(piece.encode("ascii") for piece in _MAYBE_PIECES)


cdef bint _holds(const unsigned char* text, size_t n, const unsigned char* needle, size_t m) noexcept nogil:
    # whether text holds needle (lowercase ASCII) in any ASCII case
    cdef size_t i, k
    if m > n:
        return False
    for i in range(n - m + 1):
        for k in range(m):
            if ascii_lower(text[i + k]) != needle[k]:
                break
        else:
            return True
    return False


cdef bint _may_name(tree.xmlNode* node, const char* name):
    # whether the attribute's value may make is_comment_section say yes
    cdef tree.xmlAttr* attr = find_attribute(node, name)
    cdef tree.xmlNode* value
    cdef const unsigned char* text
    cdef size_t n, i
    cdef bytes needle
    if attr is NULL or attr.children is NULL:
        return False
    value = attr.children
    if value.next is not NULL or value.type != tree.XML_TEXT_NODE or value.content is NULL:
        return True  # not one plain text: let the Python decision read it
    text = <const unsigned char*>value.content
    n = strlen(<const char*>text)
    for i in range(n):
        if text[i] >= 128:
            return True
    for needle in _NEEDLES:
        if _holds(text, n, <const unsigned char*>needle, len(needle)):
            return True
    return False


cdef object _decide(_Document doc, tree.xmlNode* node):
    # node's element if it is a comment section, else None
    if node.type != tree.XML_ELEMENT_NODE:
        return None
    if not (_may_name(node, b"class") or _may_name(node, b"id")):
        return None
    element = elementFactory(doc, node)
    return element if is_comment_section(element) else None


def comment_sections(list elements):
    """``comments.comment_sections_python``, compiled (same argument, same list)."""
    cdef dict section_of = {}  # node address -> its section (or None)
    cdef list out = []
    cdef list walked
    cdef _Element element
    cdef tree.xmlNode* node
    cdef size_t key
    for item in elements:
        if item is None:
            out.append(None)
            continue
        element = <_Element?>item
        node = element._c_node
        walked = []
        found = None
        while node is not NULL:
            key = <size_t>node
            if key in section_of:
                found = section_of[key]
                break
            walked.append(key)
            found = _decide(element._doc, node)
            if found is not None:
                break
            node = parent_element(node)
        for key in walked:
            section_of[key] = found
        out.append(found)
    return out
