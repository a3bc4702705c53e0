# Helpers shared by the compiled tree walks (_cparse.pyx, filters/density/_cdom.pyx):
# libxml2 nodes read directly, as lxml's own properties read them. No libxml2 function is
# called (lxml links its own copy of the library); only struct fields are read.

from cpython.unicode cimport PyUnicode_DecodeUTF8
from libc.string cimport strcmp, strlen

from lxml.includes cimport tree


cdef inline bint is_element_like(tree.xmlNode* node) noexcept nogil:
    # what lxml's iterwalk visits with "start"/"end", "comment" and "pi" events
    return (
        node.type == tree.XML_ELEMENT_NODE
        or node.type == tree.XML_COMMENT_NODE
        or node.type == tree.XML_PI_NODE
    )


cdef inline tree.xmlNode* next_element_like(tree.xmlNode* node) noexcept nogil:
    # node itself or its first following sibling that iterwalk visits (NULL if none)
    while node is not NULL and not is_element_like(node):
        node = node.next
    return node


cdef inline tree.xmlNode* parent_element(tree.xmlNode* node) noexcept nogil:
    # lxml's getparent(): the parent element, or NULL at the top
    cdef tree.xmlNode* parent = node.parent
    if parent is not NULL and parent.type == tree.XML_ELEMENT_NODE:
        return parent
    return NULL


cdef inline bint is_text(tree.xmlNode* node) noexcept nogil:
    return node is not NULL and (
        node.type == tree.XML_TEXT_NODE or node.type == tree.XML_CDATA_SECTION_NODE
    )


cdef inline str decode(const tree.xmlChar* text):
    return PyUnicode_DecodeUTF8(<const char*>text, strlen(<const char*>text), "strict")


cdef inline object text_run(tree.xmlNode* node):
    # lxml's _collectText: the text of the consecutive text nodes from node, or None;
    # an element's .text is text_run(el.children), its .tail text_run(el.next)
    if not is_text(node):
        return None
    if not is_text(node.next):
        return "" if node.content is NULL else decode(node.content)
    pieces = []
    while is_text(node):
        if node.content is not NULL:
            pieces.append(decode(node.content))
        node = node.next
    return "".join(pieces)


cdef inline tree.xmlAttr* find_attribute(tree.xmlNode* node, const char* name) noexcept:
    # the attribute without namespace called name (xmlHasProp, by hand), or NULL
    cdef tree.xmlAttr* attr = node.properties
    while attr is not NULL:
        if attr.ns is NULL and strcmp(<const char*>attr.name, name) == 0:
            return attr
        attr = attr.next
    return NULL
