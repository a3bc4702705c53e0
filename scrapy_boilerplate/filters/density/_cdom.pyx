# cython: language_level=3, boundscheck=False, wraparound=False
"""Compiled twin of ``_dom.walk_python``: the density family's one walk, over libxml2's
nodes instead of lxml's ``iterwalk``.

Optional, as every twin (``_compiled.py``): ``_dom.py`` uses it when it was built and
falls back to the pure-Python walk otherwise. Every branch mirrors one of ``walk_python``;
``tests/compiled/test_cdom.py`` checks both give the same lists on every golden and
crafted page. Change both together.
"""

from cpython.unicode cimport Py_UNICODE_ISSPACE
from lxml.includes cimport tree
from lxml.includes.etreepublic cimport (
    _Document,
    _Element,
    attributeValue,
    elementFactory,
    import_lxml__etree,
)

from ..._cnodes cimport decode, find_attribute, next_element_like, text_run

from ._dom import _DISPLAY_NONE, EXCLUDED_TAGS, VOID_TAGS

import_lxml__etree()


def walk(start, bint skip_hidden):
    """``_dom.walk_python``, compiled (same arguments, same lists)."""
    cdef _Element element = <_Element?>start
    cdef _Document doc = element._doc
    cdef tree.xmlNode* root = element._c_node
    cdef tree.xmlNode* node = root
    cdef tree.xmlNode* following
    cdef tree.xmlAttr* style
    cdef list elements = [], tags = [], parent = [], end = []
    cdef list run_owner = [], run_len = [], run_text = [], run_tags = []
    cdef list stack = []  # open elements; -1: an ignored one (its subtree is skipped)
    cdef Py_ssize_t pending = 0  # tag tokens since the last run
    cdef Py_ssize_t i
    cdef bint skip
    cdef dict names = {}  # libxml2's interned name -> str
    excluded = EXCLUDED_TAGS
    void = VOID_TAGS
    display_none = _DISPLAY_NONE
    while True:
        # --- start of an element, or a comment / PI
        if node.type == tree.XML_ELEMENT_NODE:
            pending += 1
            key = <size_t>node.name
            tag = names.get(key)
            if tag is None:
                tag = names[key] = decode(node.name)
            skip = False
            if stack:
                if tag in excluded:
                    skip = True
                elif skip_hidden:
                    if find_attribute(node, "hidden") is not NULL:
                        skip = True
                    else:
                        style = find_attribute(node, "style")
                        if style is not NULL:
                            value = attributeValue(node, style)
                            skip = bool(value) and display_none(value) is not None
            if skip:
                stack.append(-1)
            else:
                i = len(elements)
                elements.append(elementFactory(doc, node))
                tags.append(tag)
                parent.append(stack[len(stack) - 1] if stack else -1)
                end.append(0)
                stack.append(i)
                if _record_run(text_run(node.children), i, run_owner, run_len, run_text,
                               run_tags, pending):
                    pending = 0
                following = next_element_like(node.children)
                if following is not NULL:
                    node = following
                    continue
            # no children to visit: the element ends at once (below)
        else:  # a comment or processing instruction: one tag token; its tail is text
            pending += 1
            if _record_run(text_run(node.next), stack[len(stack) - 1], run_owner, run_len,
                           run_text, run_tags, pending):
                pending = 0
        # --- end events, climbing while there is no next sibling
        while True:
            if node.type == tree.XML_ELEMENT_NODE:
                i = stack.pop()
                if names[<size_t>node.name] not in void:
                    pending += 1
                if i >= 0:
                    end[i] = len(elements)
                if not stack:
                    # the start element's tail is not part of the page's body
                    return elements, tags, parent, end, run_owner, run_len, run_text, run_tags, pending
                if _record_run(text_run(node.next), stack[len(stack) - 1], run_owner, run_len,
                               run_text, run_tags, pending):
                    pending = 0
            following = next_element_like(node.next)
            if following is not NULL:
                node = following
                break
            node = node.parent


cdef bint _record_run(object text, Py_ssize_t owner, list run_owner, list run_len,
                     list run_text, list run_tags, Py_ssize_t pending):
    # a text run (an element's .text, or a .tail in its parent) and the tags before it;
    # whitespace-only runs count only with a line break (for CETR). True if recorded.
    # The length is len("".join(text.split())), counted without building the pieces.
    if not text:
        return False
    cdef str run = <str>text
    cdef Py_ssize_t length = 0
    cdef bint newline = False
    cdef Py_UCS4 c
    for c in run:
        if not Py_UNICODE_ISSPACE(c):
            length += 1
        elif c == 10:
            newline = True
    if length == 0 and not newline:
        return False
    run_len.append(length)
    run_owner.append(owner)
    run_text.append(text)
    run_tags.append(pending)
    return True
