# cython: language_level=3
"""Compiled twin of ``structure.collapsed_dom_python``: the collapsed DOM over a page's
blocks, climbing libxml2's parent pointers instead of creating an lxml proxy for every
ancestor, with the node tables in C arrays. Also here: ``keyword_bits``, the compiled twin
of ``structure.keyword_bits_python``.

Optional, as every twin (``_compiled.py``): ``structure.py`` uses it when it was built.
It mirrors ``collapsed_dom_python`` and the ``collapsed_blocks`` it ends in (nodes keyed
by their libxml2 address where the Python keys ``id()`` of their proxy, and found open by
their depth on the stack of open nodes where the Python uses a dict).
``tests/compiled/test_cstructure.py`` requires the same lists on every golden and crafted
page and on random tag soup. Change both together.
"""

from cpython.mem cimport PyMem_Free, PyMem_Malloc, PyMem_Realloc
from libc.string cimport strcmp
from lxml.includes cimport tree
from lxml.includes.etreepublic cimport _Element, attributeValue, import_lxml__etree

from .._cnodes cimport decode, find_attribute, parent_element

from .columns import KEYWORD_GROUPS, TAG_BITS
from .structure import _BLOCK_TAGS, _EXT_TAG_BIT, _FORM_TAGS, _HIDDEN_BIT, _HIDDEN_STYLE_RE

import numpy as np


cdef extern from "Python.h":
    int PyUnicode_KIND(object text)
    void* PyUnicode_DATA(object text)
    Py_UCS4 PyUnicode_READ(int kind, void* data, Py_ssize_t index) nogil


import_lxml__etree()

cdef inline tree.xmlNode* _node(object element) except NULL:
    # the libxml2 node of an lxml element, comment or PI (TypeError for anything else)
    return (<_Element?>element)._c_node


cdef inline tree.xmlNode* _at(size_t key) noexcept:
    return <tree.xmlNode*>key


cdef object _tag(tree.xmlNode* node):
    # lxml's .tag when it is a str (elements), else None (comments, PIs: a function).
    # Decoded every time: a cache keyed by libxml2's interned name pointers could outlive
    # the parser dictionary that owns them (and a short ASCII decode is cheap).
    if node.type != tree.XML_ELEMENT_NODE:
        return None
    if node.ns is not NULL and node.ns.href is not NULL:
        return "{%s}%s" % (decode(node.ns.href), decode(node.name))
    return decode(node.name)


cdef void* _grow(void* block, size_t size) except NULL:
    # PyMem_Realloc that raises (the old block stays owned by the caller on failure)
    cdef void* grown = PyMem_Realloc(block, size)
    if grown is NULL:
        raise MemoryError()
    return grown


cdef inline Py_ssize_t _depth(tree.xmlNode* e) noexcept:
    # the number of elements above e
    cdef Py_ssize_t depth = 0
    e = parent_element(e)
    while e is not NULL:
        depth += 1
        e = parent_element(e)
    return depth


cdef size_t _anchor(list elements) except? 0:
    # structure._anchor: the lowest common ancestor of the elements (0: none). The twin
    # climbs each element to a dict of the first one's ancestors; here the two sides climb
    # to equal depth and then together, with no allocation.
    cdef Py_ssize_t count = len(elements), i, depth, other_depth
    cdef tree.xmlNode* best
    cdef tree.xmlNode* a
    cdef tree.xmlNode* e
    if count == 0:
        return 0
    best = _node(elements[0])
    if count == 1:
        return <size_t>best
    depth = _depth(best)
    for i in range(1, count):
        a = best
        e = _node(elements[i])
        other_depth = _depth(e)
        while other_depth > depth:
            e = parent_element(e)
            other_depth -= 1
        while depth > other_depth:
            a = parent_element(a)
            depth -= 1
        while a != e:
            a = parent_element(a)
            e = parent_element(e)
            depth -= 1
        if a is NULL:  # not in the first element's tree: the top of its chain
            a = _node(elements[0])
            while parent_element(a) is not NULL:
                a = parent_element(a)
            return <size_t>a
        best = a
    return <size_t>best


# --- keyword groups of class / id words (structure.keyword_bits, without regex or cache) ---
# The literals of columns.KEYWORD_GROUPS in matching order, indexed by first letter. Most
# attribute strings are unique to their page, so a cache (the regex twin's) does not help
# a crawl; a scan by hand costs far less than the regex (docs/neural.md).
cdef enum:
    MAX_LITERALS = 128
    MAX_LENGTH = 24

cdef unsigned int _lit_chars[MAX_LITERALS][MAX_LENGTH]
cdef int _lit_len[MAX_LITERALS]
cdef long _lit_bit[MAX_LITERALS]
cdef bint _lit_after_letter_ok[MAX_LITERALS]
cdef bint _lit_before_letter_ok[MAX_LITERALS]
cdef int _by_first[26][MAX_LITERALS]
cdef int _by_first_count[26]
cdef bint _starts[26][27]  # some literal starts with these two letters (26: no letter)


cdef void _load_literals() except *:
    cdef int count = 0, i, k, first, second
    for i in range(26):
        _by_first_count[i] = 0
    for group, (name, literals) in enumerate(KEYWORD_GROUPS):
        for literal in literals:
            text = literal.strip("^$")
            if count == MAX_LITERALS or len(text) > MAX_LENGTH or not text.isascii():
                raise ValueError(f"keyword literal table: cannot hold {literal!r}")
            first = ord(text[0]) - 97
            if not 0 <= first < 26 or len(text) < 2:
                raise ValueError(f"keyword literal must start with a-z, 2 long: {literal!r}")
            second = ord(text[1]) - 97
            _starts[first][second if 0 <= second < 26 else 26] = True
            for k in range(len(text)):
                _lit_chars[count][k] = ord(text[k])
            _lit_len[count] = len(text)
            _lit_bit[count] = 1 << group
            _lit_after_letter_ok[count] = not literal.startswith("^")
            _lit_before_letter_ok[count] = not literal.endswith("$")
            _by_first[first][_by_first_count[first]] = count
            _by_first_count[first] += 1
            count += 1


_load_literals()


cdef inline bint _is_az(unsigned int c) noexcept:
    return 97 <= c <= 122


cdef inline unsigned int _lower_at(bint ascii, int kind, void* data, Py_ssize_t i) noexcept:
    # the character at i of the lower-cased text: ASCII text is lower-cased on the fly,
    # other text was lower-cased by str.lower() (which may map a non-ASCII letter to ASCII)
    cdef unsigned int c
    if ascii:
        c = (<unsigned char*>data)[i]
        return c + 32 if 65 <= c <= 90 else c
    return PyUnicode_READ(kind, data, i)


cdef long _keyword_bits(object value) except -1:
    # structure.keyword_bits(value): leftmost match first, literals in table order, the
    # scan resumes after a match (as re.finditer). A position whose two letters start no
    # literal is passed at once (most positions of a class string).
    cdef str text
    cdef Py_ssize_t n, i = 0, k, length
    cdef int first, second, j, lit, kind
    cdef unsigned int c
    cdef long bits = 0
    cdef bint matched, ascii
    cdef void* data
    if not value:
        return 0
    text = value
    ascii = text.isascii()
    if not ascii:
        text = text.lower()
    n = len(text)
    kind = PyUnicode_KIND(text)
    data = PyUnicode_DATA(text)
    while i < n:
        c = _lower_at(ascii, kind, data, i)
        matched = False
        if _is_az(c) and i + 1 < n:
            first = c - 97
            c = _lower_at(ascii, kind, data, i + 1)
            second = c - 97 if _is_az(c) else 26
            if _starts[first][second]:
                for j in range(_by_first_count[first]):
                    lit = _by_first[first][j]
                    length = _lit_len[lit]
                    if i + length > n:
                        continue
                    if (not _lit_after_letter_ok[lit] and i > 0
                            and _is_az(_lower_at(ascii, kind, data, i - 1))):
                        continue
                    k = 1
                    while k < length and _lower_at(ascii, kind, data, i + k) == _lit_chars[lit][k]:
                        k += 1
                    if k < length:
                        continue
                    if (not _lit_before_letter_ok[lit] and i + length < n
                            and _is_az(_lower_at(ascii, kind, data, i + length))):
                        continue
                    bits |= _lit_bit[lit]
                    i += length
                    matched = True
                    break
        if not matched:
            i += 1
    return bits


def keyword_bits(key: str) -> int:
    """``structure.keyword_bits``, compiled (no cache: it is faster than a lookup)."""
    return _keyword_bits(key)


cdef object _attribute(tree.xmlNode* node, const char* name):
    # el.get(name) for an attribute without namespace
    cdef tree.xmlAttr* attr = find_attribute(node, name)
    if attr is NULL:
        return None
    return attributeValue(node, attr)


cdef long _cached_keyword_bits(object value, dict cache) except -1:
    # _keyword_bits, remembered for the page: its class strings repeat from element to
    # element (a cache across pages would fill with strings unique to one page)
    if value is None:
        return 0
    bits = cache.get(value)
    if bits is None:
        bits = cache[value] = _keyword_bits(value)
    return bits


cdef bint _hidden_style(object style, dict cache) except -1:
    # the style hides the element (remembered for the page, as the keyword bits)
    if not style:
        return False
    hidden = cache.get(style)
    if hidden is None:
        hidden = cache[style] = _HIDDEN_STYLE_RE.search(style) is not None
    return hidden


cdef long long _HIDDEN = _HIDDEN_BIT


cdef long long _ext_bits(long long tag_bit, object cls, tree.xmlNode* node, dict words,
                         dict styles) except -1:
    # structure._ext_bits of an element with attributes, in one pass over them (the first
    # attribute of a name counts, as el.get reads it); class and id words apart: matches
    # never span the space the Python twin joins them with
    cdef tree.xmlAttr* attr = node.properties
    cdef tree.xmlAttr* ident = NULL
    cdef tree.xmlAttr* style = NULL
    cdef tree.xmlAttr* aria = NULL
    cdef bint hidden = False
    cdef const char* name
    while attr is not NULL:
        if attr.ns is NULL:
            name = <const char*>attr.name
            if ident is NULL and strcmp(name, "id") == 0:
                ident = attr
            elif strcmp(name, "hidden") == 0:
                hidden = True
            elif style is NULL and strcmp(name, "style") == 0:
                style = attr
            elif aria is NULL and strcmp(name, "aria-hidden") == 0:
                aria = attr
        attr = attr.next
    cdef long long bits = tag_bit | _cached_keyword_bits(cls, words)
    if ident is not NULL:  # ids are unique to their element: not worth remembering
        bits |= _keyword_bits(attributeValue(node, ident))
    if (
        hidden
        or (aria is not NULL and attributeValue(node, aria) == "true")
        or (style is not NULL and _hidden_style(attributeValue(node, style), styles))
    ):
        bits |= _HIDDEN
    return bits


# --- tag facts by libxml2 name, for one page ---
# A page uses a few dozen tag names, each interned once in the parser's dictionary, so a
# name's address stands for it while the page's tree lives (never across pages: a freed
# dictionary's addresses are reused). The table maps addresses to the name's bits.
cdef enum:
    TAG_SLOTS = 512  # open addressing, a power of two
    MAX_TAGS = 255  # entries; one more is scratch for names past the table's room


cdef struct TagTable:
    size_t name[TAG_SLOTS]
    size_t href[TAG_SLOTS]
    int entry[TAG_SLOTS]  # -1: free
    int count
    long long tag_bit[MAX_TAGS + 1]
    long long ext_bit[MAX_TAGS + 1]
    bint block[MAX_TAGS + 1]


cdef void _clear(TagTable* table) noexcept:
    cdef int k
    for k in range(TAG_SLOTS):
        table.entry[k] = -1
    table.count = 0


cdef int _tag_entry(TagTable* table, list tags, tree.xmlNode* node) except -2:
    # the table entry of node's tag (tags[entry] is lxml's .tag), or -1 when node is no
    # element (a comment or PI: no tag)
    if node.type != tree.XML_ELEMENT_NODE:
        return -1
    cdef size_t name = <size_t>node.name
    cdef size_t href = 0
    if node.ns is not NULL and node.ns.href is not NULL:
        href = <size_t>node.ns.href
    cdef size_t slot = ((name >> 4) ^ (href >> 3)) & (TAG_SLOTS - 1)
    cdef int entry
    while table.entry[slot] != -1:
        if table.name[slot] == name and table.href[slot] == href:
            return table.entry[slot]
        slot = (slot + 1) & (TAG_SLOTS - 1)
    tag = _tag(node)
    if table.count < MAX_TAGS:
        entry = table.count
        table.count += 1
        table.name[slot] = name
        table.href[slot] = href
        table.entry[slot] = entry
        tags.append(tag)
    else:  # the table is full: the scratch entry, decoded every time
        entry = MAX_TAGS
        if len(tags) > MAX_TAGS:
            tags[MAX_TAGS] = tag
        else:
            tags.append(tag)
    table.tag_bit[entry] = TAG_BITS.get(tag, 0)
    table.ext_bit[entry] = _EXT_TAG_BIT.get(tag, 0)
    table.block[entry] = tag in _BLOCK_TAGS
    return entry


cdef class _Nodes:
    # the collapsed DOM's node table (0 is the virtual root), in growable C arrays
    cdef Py_ssize_t size, capacity
    cdef size_t* el
    cdef Py_ssize_t* parent
    cdef Py_ssize_t* first
    cdef Py_ssize_t* last
    cdef Py_ssize_t* depth

    def __cinit__(self, Py_ssize_t capacity):
        self.capacity = capacity if capacity > 16 else 16
        self.size = 0
        self.el = <size_t*>PyMem_Malloc(self.capacity * sizeof(size_t))
        self.parent = <Py_ssize_t*>PyMem_Malloc(self.capacity * sizeof(Py_ssize_t))
        self.first = <Py_ssize_t*>PyMem_Malloc(self.capacity * sizeof(Py_ssize_t))
        self.last = <Py_ssize_t*>PyMem_Malloc(self.capacity * sizeof(Py_ssize_t))
        self.depth = <Py_ssize_t*>PyMem_Malloc(self.capacity * sizeof(Py_ssize_t))
        if (self.el is NULL or self.parent is NULL or self.first is NULL
                or self.last is NULL or self.depth is NULL):
            raise MemoryError()

    def __dealloc__(self):
        PyMem_Free(self.el)
        PyMem_Free(self.parent)
        PyMem_Free(self.first)
        PyMem_Free(self.last)
        PyMem_Free(self.depth)

    cdef int push(self, size_t el, Py_ssize_t parent, Py_ssize_t first, Py_ssize_t last,
                  Py_ssize_t depth) except -1:
        cdef Py_ssize_t grown
        if self.size == self.capacity:
            grown = 2 * self.capacity
            self.el = <size_t*>_grow(self.el, grown * sizeof(size_t))
            self.parent = <Py_ssize_t*>_grow(self.parent, grown * sizeof(Py_ssize_t))
            self.first = <Py_ssize_t*>_grow(self.first, grown * sizeof(Py_ssize_t))
            self.last = <Py_ssize_t*>_grow(self.last, grown * sizeof(Py_ssize_t))
            self.depth = <Py_ssize_t*>_grow(self.depth, grown * sizeof(Py_ssize_t))
            self.capacity = grown
        self.el[self.size] = el
        self.parent[self.size] = parent
        self.first[self.size] = first
        self.last[self.size] = last
        self.depth[self.size] = depth
        self.size += 1
        return 0


cdef object _int_list(const Py_ssize_t* values, Py_ssize_t count):
    return [values[k] for k in range(count)]


def collapsed_dom(blocks, root):
    """``structure.collapsed_dom_python``, compiled (same arguments, same lists). The node
    tables are C arrays here, and the per-block derivation (``structure.collapsed_blocks``
    in the twin) is done on them."""
    cdef Py_ssize_t n = len(blocks), i, j, k, m, p, nid, parent_id
    cdef size_t a
    cdef tree.xmlNode* e
    cdef tree.xmlNode* node
    cdef int entry
    cdef TagTable table
    cdef list tags = []  # lxml's .tag of each table entry
    _clear(&table)
    # nodes: 0 is a virtual root above everything; others are elements, in pre-order
    cdef _Nodes nodes = _Nodes(4 * n + 16)
    nodes.push(0, -1, 0, n - 1, 0)
    anchors_arr = np.zeros(n, dtype=np.intp)
    lca_arr = np.zeros(max(n - 1, 0), dtype=np.intp)
    leaf_arr = np.zeros(n, dtype=np.int64)
    cdef Py_ssize_t[::1] anchors = anchors_arr
    cdef Py_ssize_t[::1] lca = lca_arr
    cdef long long[::1] leaf_tags = leaf_arr
    # the open nodes: the ancestor chain of the last anchor from the top element down, so
    # an element e of depth d (elements above it) is open iff stack[d] is e (the Python
    # twin keeps a dict of the open nodes instead)
    cdef Py_ssize_t depth, top = 0, capacity = 64, fresh
    cdef size_t* stack = <size_t*>PyMem_Malloc(capacity * sizeof(size_t))
    cdef Py_ssize_t* stack_id = <Py_ssize_t*>PyMem_Malloc(capacity * sizeof(Py_ssize_t))
    if stack is NULL or stack_id is NULL:
        PyMem_Free(stack)
        PyMem_Free(stack_id)
        raise MemoryError()
    try:
        for i in range(n):
            elements = blocks[i].elements
            a = _anchor(elements)
            for el in elements:
                entry = _tag_entry(&table, tags, _node(el))
                if entry >= 0:
                    leaf_tags[i] |= table.tag_bit[entry]
            # climb from the anchor to the first open node (or past the top)
            e = _at(a)
            depth = _depth(e) if e is not NULL else -1
            fresh = 0
            while e is not NULL and not (depth < top and stack[depth] == <size_t>e):
                fresh += 1
                e = parent_element(e)
                depth -= 1
            k = 0 if e is NULL else depth + 1  # open nodes that stay open
            while top > k:
                top -= 1
                nodes.last[stack_id[top]] = i - 1
            if i > 0:
                lca[i - 1] = stack_id[top - 1] if top > 0 else 0
            parent_id = stack_id[top - 1] if top > 0 else 0
            if top + fresh > capacity:
                capacity = 2 * (top + fresh)
                stack = <size_t*>_grow(stack, capacity * sizeof(size_t))
                stack_id = <Py_ssize_t*>_grow(stack_id, capacity * sizeof(Py_ssize_t))
            # push the fresh nodes, top-down: they are the anchor's ancestors below e
            e = _at(a)
            for j in range(fresh - 1, -1, -1):
                stack[top + j] = <size_t>e
                e = parent_element(e)
            for j in range(fresh):
                nid = nodes.size
                nodes.push(stack[top], parent_id, i, i, top + 1)
                stack_id[top] = nid
                top += 1
                parent_id = nid
            anchors[i] = stack_id[top - 1] if top > 0 else 0
        while top > 0:
            top -= 1
            nodes.last[stack_id[top]] = n - 1
    finally:
        PyMem_Free(stack)
        PyMem_Free(stack_id)

    m = nodes.size
    count_arr = np.empty(m, dtype=np.intp)
    group_arr = np.arange(m, dtype=np.intp)  # top node of the collapsed group
    above_arr = np.full(m, -1, dtype=np.intp)  # nearest strict ancestor with more blocks
    cdepth_arr = np.zeros(m, dtype=np.intp)  # collapsed depth (number of groups above)
    blockdepth_arr = np.zeros(m, dtype=np.intp)  # deepest block-tag element at or above
    group_tags_arr = np.zeros(m, dtype=np.int64)  # tag bits of each group (at its top)
    ext_arr = np.zeros(m, dtype=np.int64)  # extension flags of the node and its ancestors
    cdef Py_ssize_t[::1] count = count_arr
    cdef Py_ssize_t[::1] group = group_arr
    cdef Py_ssize_t[::1] above = above_arr
    cdef Py_ssize_t[::1] cdepth = cdepth_arr
    cdef Py_ssize_t[::1] blockdepth = blockdepth_arr
    cdef long long[::1] group_tags = group_tags_arr
    cdef long long[::1] ext = ext_arr
    cdef list path = [0] * m  # hash of the class path (tag.class of node and ancestors)
    cdef dict words = {}  # keyword bits of the page's class and id strings
    cdef dict styles = {}  # whether the page's style strings hide
    for j in range(m):
        count[j] = nodes.last[j] - nodes.first[j] + 1
    for j in range(1, m):
        p = nodes.parent[j]
        node = _at(nodes.el[j])
        entry = _tag_entry(&table, tags, node)
        tag = tags[entry] if entry >= 0 else ""
        if count[p] == count[j] and p != 0:
            group[j] = group[p]
            above[j] = above[p]
            cdepth[j] = cdepth[p]
        else:
            above[j] = p
            cdepth[j] = cdepth[p] + 1
        if entry >= 0:
            group_tags[group[j]] |= table.tag_bit[entry]
        blockdepth[j] = nodes.depth[j] if entry >= 0 and table.block[entry] else blockdepth[p]
        if node.type == tree.XML_ELEMENT_NODE and node.properties is not NULL:
            cls = _attribute(node, "class")
            ext[j] = ext[p] | _ext_bits(table.ext_bit[entry], cls, node, words, styles)
        else:
            cls = None
            ext[j] = ext[p] | (table.ext_bit[entry] if entry >= 0 else 0)
        path[j] = hash((path[p], tag, cls))
    # form elements: mark the nearest node above each, then propagate upwards
    form_arr = np.zeros(m, dtype=bool)
    cdef unsigned char[::1] form = form_arr.view(np.uint8)
    if root is not None and n:
        forms = list(root.iter(*_FORM_TAGS))
        if forms:
            index = {nodes.el[j]: j for j in range(1, m)}
            for el in forms:
                e = _node(el)
                while e is not NULL and <size_t>e not in index:
                    e = parent_element(e)
                if e is not NULL:
                    form[<Py_ssize_t>index[<size_t>e]] = 1
            for j in range(m - 1, 0, -1):
                if form[j]:
                    form[nodes.parent[j]] = 1

    # per block: parent and grandparent groups (structure.collapsed_blocks)
    parent_arr = np.full(n, -1, dtype=np.intp)
    gp_arr = np.full(n, -1, dtype=np.intp)
    cdef Py_ssize_t[::1] parent = parent_arr
    cdef Py_ssize_t[::1] gp = gp_arr
    class_path = [None] * n
    for i in range(n):
        a = anchors[i]
        class_path[i] = path[a]
        if count[a] >= 2:
            p = a
        else:
            if a != 0:
                leaf_tags[i] |= group_tags[group[a]]
            p = above[a] if a != 0 else -1
        if p == 0 and n < 2:
            p = -1
        if p != -1:
            parent[i] = p
            gp[i] = above[p] if p != 0 else -1
    # edges: tree distance and block break
    dist_arr = np.zeros(max(n - 1, 0), dtype=np.intp)
    brk_arr = np.zeros(max(n - 1, 0), dtype=bool)
    cdef Py_ssize_t[::1] dist = dist_arr
    cdef unsigned char[::1] brk = brk_arr.view(np.uint8)
    cdef Py_ssize_t lc, pa, pb, da, db, depth_l, aa, ab
    for i in range(n - 1):
        lc = lca[i]
        pa = parent[i]
        pb = parent[i + 1]
        da = cdepth[pa] - cdepth[lc] if pa > 0 else 0
        db = cdepth[pb] - cdepth[lc] if pb > 0 else 0
        dist[i] = da + db + 2
        depth_l = nodes.depth[lc]
        aa = anchors[i]
        ab = anchors[i + 1]
        brk[i] = aa == ab or blockdepth[aa] > depth_l or blockdepth[ab] > depth_l
    return (
        parent_arr.tolist(),
        gp_arr.tolist(),
        lca_arr.tolist(),
        dist_arr.tolist(),
        brk_arr.tolist(),
        _int_list(nodes.first, m),
        _int_list(nodes.last, m),
        form_arr.tolist(),
        group_tags_arr[group_arr].tolist(),
        leaf_arr.tolist(),
        class_path,
        ext_arr[anchors_arr].tolist(),
        [nodes.depth[anchors[i]] for i in range(n)],
        [count[parent[i]] if parent[i] >= 0 else 1 for i in range(n)],
    )
