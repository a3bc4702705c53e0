# cython: language_level=3, boundscheck=False, wraparound=False
"""Compiled twin of ``bylines.candidates_python``: the same elements in the same order,
from one walk of libxml2's nodes that reads the ``class`` and ``rel`` attributes in
place and makes an lxml element only of what it returns (the Python walk makes one of
every element of the page).

Optional, as every twin (``_compiled.py``); ``tests/compiled/test_cbylines.py`` compares
both on every golden and crafted page and on random markup. Change both together.
"""

from libc.string cimport strcmp

from lxml.includes cimport tree
from lxml.includes.etreepublic cimport _Element, attributeValue, elementFactory, import_lxml__etree

from .._cnodes cimport find_attribute

from .bylines import _BYLINE_PIECES

import_lxml__etree()

cdef tuple _PIECES = tuple(_BYLINE_PIECES)


cdef bint _may_name_a_byline(str value):
    # a substring test of the lowercased class, as the Python twin makes it
    cdef str lowered = value.lower()
    for piece in _PIECES:
        if piece in lowered:
            return True
    return False


cdef bint _worth_a_look(tree.xmlNode* node):
    cdef tree.xmlAttr* attr = find_attribute(node, b"class")
    if attr is not NULL and _may_name_a_byline(attributeValue(node, attr)):
        return True
    if node.ns is NULL and strcmp(<const char*>node.name, b"a") == 0:
        attr = find_attribute(node, b"rel")
        return attr is not NULL and len(attributeValue(node, attr)) > 0
    return False


def candidates(root, Py_ssize_t limit):
    """``bylines.candidates_python``, compiled (same arguments, same list)."""
    cdef _Element element = <_Element?>root
    cdef tree.xmlNode* top = element._c_node
    cdef tree.xmlNode* node = top
    cdef list found = []
    if limit <= 0:
        return found
    while node is not NULL:
        if node.type == tree.XML_ELEMENT_NODE:
            if _worth_a_look(node):
                found.append(elementFactory(element._doc, node))
                if len(found) >= limit:
                    break
            if node.children is not NULL:  # into the element (document order)
                node = node.children
                continue
        while node is not top and node.next is NULL:  # up to the next sibling
            node = node.parent
        if node is top:
            break
        node = node.next
    return found
