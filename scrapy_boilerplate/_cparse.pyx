# cython: language_level=3, boundscheck=False, wraparound=False
"""Compiled twin of ``parse.segment_python``: the same SAX-handler replay, walking libxml2's
nodes directly instead of through lxml's ``iterwalk``.

Optional: ``parse.py`` uses it when it was built (``pip install`` compiles it when Cython
and a C compiler are there) and falls back to ``segment_python`` otherwise. Every branch
below mirrors a branch of ``segment_python``; ``tests/compiled/test_cparse.py`` checks the two
give identical blocks on every golden and crafted page. Change both together.

Why it is faster: no Python element proxy per node (only the elements that own block text
get one, through lxml's public C API), tag actions looked up by libxml2's interned name,
the handler state in C variables.
"""

from lxml.includes cimport tree
from lxml.includes.etreepublic cimport _Document, _Element, elementFactory, import_lxml__etree

from ._cnodes cimport find_attribute, next_element_like, parent_element, text_run

from . import neko
from .words import ANCHOR_END, ANCHOR_START, JAVA_TRIM_CHARS, JAVA_WHITESPACE, has_tokens

import_lxml__etree()

# the tag actions of parse.py, as C ints
cdef enum:
    _BLOCK, _IGNORE, _ANCHOR, _BODY, _INLINE, _INLINE_SPACE, _LABELLED

from .parse import _ACTIONS, _BLOCK_LABELS, _JAVA_WHITESPACE, _MARKERS, make_blocks, shown_text

cdef dict _ACTIONS_BY_NAME = {name.encode(): action for name, action in _ACTIONS.items()}
_LABELS_BY_NAME = {name.encode(): labels for name, labels in _BLOCK_LABELS.items()}
cdef bytes _UNCLOSED_NAME = neko.UNCLOSED_EMBED.encode()
cdef const char* _UNCLOSED = _UNCLOSED_NAME
_ANCHOR_START_PART = ANCHOR_START + " "
_ANCHOR_END_PART = ANCHOR_END + " "

# Java's whitespace (JAVA_WHITESPACE) and trim (code points <= U+0020) tested in C: str.strip
# with a set of characters looks each edge character up in the set, and whitespace runs
# between tags are most of the text nodes of a page.
cdef bint _WS_LOW[33]
for _ch in JAVA_WHITESPACE:
    if ord(_ch) <= 32:
        _WS_LOW[ord(_ch)] = True
cdef frozenset _WS_HIGH = frozenset(c for c in JAVA_WHITESPACE if ord(c) > 32)
cdef Py_UCS4 _WS_HIGH_MIN = min(ord(c) for c in _WS_HIGH)
if JAVA_TRIM_CHARS != "".join(chr(i) for i in range(33)):
    raise ImportError("_cparse assumes Java's trim() removes exactly U+0000-U+0020")


cdef inline bint _is_java_ws(Py_UCS4 c):
    if c <= 32:
        return _WS_LOW[c]
    return c >= _WS_HIGH_MIN and c in _WS_HIGH


cdef str _strip_java_ws(str text):
    # text.strip(JAVA_WHITESPACE)
    cdef Py_ssize_t start = 0, end = len(text)
    while start < end and _is_java_ws(text[start]):
        start += 1
    while end > start and _is_java_ws(text[end - 1]):
        end -= 1
    return text if start == 0 and end == len(text) else text[start:end]


cdef bint _all_java_ws(str text):
    # not text.strip(JAVA_WHITESPACE)
    cdef Py_UCS4 c
    for c in text:
        if not _is_java_ws(c):
            return False
    return True


cdef str _java_trim(str text):
    # text.strip(JAVA_TRIM_CHARS): Java's String.trim()
    cdef Py_ssize_t start = 0, end = len(text)
    while start < end and text[start] <= 32:
        start += 1
    while end > start and text[end - 1] <= 32:
        end -= 1
    return text if start == 0 and end == len(text) else text[start:end]


cdef bint _only_trim_and_separators(str text):
    # not text.strip(JAVA_TRIM_CHARS + "\u2063"): only trimmed characters and separators
    cdef Py_UCS4 c
    for c in text:
        if c > 32 and c != 0x2063:
            return False
    return True


cdef class _Segmenter:
    cdef _Document doc
    cdef bint cjk
    cdef public object title
    cdef list parts
    cdef bint has_marker, has_text, last_was_space, flush_requested
    # a space boilerpipe put in (links' edges, <abbr>), still undecided (its index in
    # parts, or -1), and those the page does not have (see segment_python)
    cdef Py_ssize_t marker_space
    cdef list not_shown
    cdef list owners  # addresses of the elements whose text is in the buffer
    cdef list text_owners  # of them, those whose .text is (not a child's tail)
    cdef list tail_owners  # addresses of the elements whose .tail is in the buffer
    cdef int in_body, in_ignorable, tag_level, block_tag_level
    cdef bytes last_start_tag
    cdef list texts, shown_texts, token_texts, levels, labels, elements, open_labels
    cdef list text_of, tail_of  # per block: the elements whose .text / .tail it holds
    cdef list open_actions  # the action of every open element (for its end)
    cdef dict open_embeds  # parent address -> unclosed <embed>s in it (see neko.py)
    cdef set ignored_bodies  # addresses of a second <body>, which NekoHTML drops
    cdef tree.xmlNode* open_anchor  # the <a> whose text counts as linked, if any

    def __cinit__(self, _Document doc, bint cjk):
        self.doc = doc
        self.cjk = cjk
        self.title = None
        self.parts = []
        self.owners = []
        self.text_owners = []
        self.tail_owners = []
        self.block_tag_level = -1
        self.last_start_tag = b""
        self.texts = []
        self.shown_texts = []
        self.marker_space = -1
        self.not_shown = []
        self.token_texts = []
        self.levels = []
        self.labels = []
        self.elements = []
        self.text_of = []
        self.tail_of = []
        self.open_labels = []
        self.open_actions = []
        self.open_embeds = {}
        self.ignored_bodies = set()
        self.open_anchor = NULL

    cdef flush(self):
        # boilerpipe's flushBlock (called only with a non-empty buffer)
        cdef list parts = self.parts
        if not self.in_body:
            if self.last_start_tag == b"title":
                candidate = _java_trim("".join(parts))
                if candidate:
                    self.title = candidate
            self.parts = []
            self.has_marker = self.has_text = False
            self.owners = []
            self.text_owners.clear()
            self.tail_owners.clear()
            self.marker_space = -1
            self.not_shown = []
            return
        if len(parts) == 1 and parts[0] == " " and self.last_was_space:
            self.parts = []
            self.has_marker = False
            self.marker_space = -1
            self.not_shown = []
            return
        if not self.has_text:
            return
        tokens = "".join(parts)
        if self.has_marker:
            plain = "".join([p for p in parts if p not in _MARKERS])
            # has_tokens() is true when the text has a character that is neither trimmed
            # nor a separator (and no marker look-alike): skip the call then (most links)
            if ("\ue00a" in plain or _only_trim_and_separators(plain)) and not has_tokens(
                tokens
            ):
                return
            self.texts.append(_java_trim(plain))
            trimmed = _java_trim(tokens)
        else:
            trimmed = _java_trim(tokens)
            self.texts.append(trimmed)
        self.shown_texts.append(shown_text(parts, self.not_shown) if self.not_shown else None)
        self.token_texts.append(trimmed)
        self.levels.append(self.block_tag_level)
        if self.open_labels:
            self.labels.append({label for entry in self.open_labels for label in entry})
        else:
            self.labels.append(set())
        cdef _Document doc = self.doc
        cdef list owners = self.owners
        cdef size_t address
        if len(owners) > 1:
            owners = list(dict.fromkeys(owners))
        self.elements.append(
            [
                elementFactory(doc, <tree.xmlNode*>address) if address else None
                for address in owners
            ]
        )
        # (most blocks hold no tail: their own texts are their elements, None says so)
        if self.tail_owners:
            self.text_of.append(
                [elementFactory(doc, <tree.xmlNode*>address) for address in self.text_owners]
            )
            self.tail_of.append(
                [elementFactory(doc, <tree.xmlNode*>address) for address in self.tail_owners]
            )
        else:
            self.text_of.append(None)
            self.tail_of.append(())
        self.parts = []
        self.has_marker = self.has_text = False
        self.owners = []
        self.text_owners.clear()
        self.tail_owners.clear()
        self.block_tag_level = -1
        self.marker_space = -1
        self.not_shown = []

    cdef characters(self, str chunk, size_t owner, size_t tail_of):
        # boilerpipe's characters(): whitespace runs at chunk edges become one space
        if self.flush_requested:
            self.flush_requested = False
            if self.parts:
                self.flush()
        if self.in_ignorable:
            return
        stripped = _strip_java_ws(chunk)
        if not stripped:
            if not self.last_was_space:
                self.parts.append(" ")
                self.last_was_space = True
            self.marker_space = -1
            return
        if not stripped.isprintable():
            stripped = _JAVA_WHITESPACE(" ", stripped)
        if _is_java_ws(chunk[0]):
            if not self.last_was_space:
                self.parts.append(" ")
            self.marker_space = -1
        elif self.marker_space >= 0:
            self.not_shown.append(self.marker_space)
            self.marker_space = -1
        if self.block_tag_level == -1:
            self.block_tag_level = self.tag_level
        self.last_was_space = _is_java_ws(chunk[len(chunk) - 1])
        self.parts.append(stripped + " " if self.last_was_space else stripped)
        self.has_text = True
        cdef list owners = self.owners
        if not owners or owners[len(owners) - 1] != owner:
            owners.append(owner)
        if tail_of:
            self.tail_owners.append(tail_of)
        else:
            self.text_owners.append(owner)

    cdef add_marker(self, str marker):
        if not self.last_was_space:
            self.marker_space = len(self.parts)
            self.parts.append(" ")
        self.parts.append(marker)
        self.has_marker = self.last_was_space = True

    cdef text_event(self, object chunk, tree.xmlNode* owner, tree.xmlNode* tail_of=NULL):
        # what segment_python does with an element's text or tail (or a comment's tail):
        # ``tail_of`` is the element whose tail the chunk is (NULL for an element's text)
        if chunk:
            if self.flush_requested or not _all_java_ws(chunk):
                self.characters(chunk, <size_t>owner, <size_t>tail_of)
            elif not self.in_ignorable:
                if not self.last_was_space:
                    self.parts.append(" ")
                    self.last_was_space = True
                self.marker_space = -1

    cdef walk(self, tree.xmlNode* root):
        # pre-order over elements, comments and PIs with explicit start and end steps
        # (iterwalk's events); text nodes are read as the .text / .tail runs around them
        cdef tree.xmlNode* node = root
        cdef tree.xmlNode* following
        while True:
            if node.type == tree.XML_ELEMENT_NODE:
                self._start(node)
                following = next_element_like(node.children)
                if following is not NULL:
                    node = following
                    continue
            else:  # a comment or processing instruction: only its tail is text
                self.text_event(text_run(node.next), parent_element(node), node)
            # end what has no further children, climbing while there is no next sibling
            while True:
                if node.type == tree.XML_ELEMENT_NODE:
                    self._end(node)
                if node is root:
                    return
                following = next_element_like(node.next)
                if following is not NULL:
                    node = following
                    break
                node = node.parent

    cdef _start(self, tree.xmlNode* node):
        cdef bytes name = <const char*>node.name
        cdef int action = _ACTIONS_BY_NAME.get(name, _BLOCK)
        self.open_actions.append(action)
        if action == _BLOCK:
            self.tag_level += 1
            self.flush_requested = True
        elif action == _INLINE:
            pass
        elif action == _LABELLED:
            self.tag_level += 1
            self.flush_requested = True
            self.open_labels.append(_LABELS_BY_NAME[name])
        elif action == _ANCHOR:
            self.tag_level += 1
            if self.open_anchor is not NULL:
                # an <a> inside an <a>: NekoHTML ends the outer one here
                if not self.in_ignorable:
                    self.add_marker(_ANCHOR_END_PART)
            self.open_anchor = node
            if not self.in_ignorable:
                self.add_marker(_ANCHOR_START_PART)
        elif action == _IGNORE:
            self.tag_level += 1
            self.in_ignorable += 1
            self.flush_requested = True
            if name == b"embed" and find_attribute(node, _UNCLOSED) is not NULL:
                parent = <size_t>node.parent
                self.open_embeds[parent] = self.open_embeds.get(parent, 0) + 1
        elif action == _BODY:
            if self.in_body:
                self.ignored_bodies.add(<size_t>node)
            else:
                self.tag_level += 1
                self.flush_requested = False
                if self.parts:
                    self.flush()
                self.in_body += 1
        elif not self.last_was_space:  # _INLINE_SPACE
            self.marker_space = len(self.parts)
            self.parts.append(" ")
            self.last_was_space = True
        self.last_start_tag = name
        self.text_event(text_run(node.children), node)

    cdef _end(self, tree.xmlNode* node):
        cdef int action
        cdef size_t address = <size_t>node
        if self.open_embeds and address in self.open_embeds:
            n = self.open_embeds.pop(address)
            self.in_ignorable -= n
            self.tag_level -= n
            self.flush_requested = False
            if self.parts:
                self.flush()
        action = self.open_actions.pop()
        if action == _IGNORE and (<bytes>node.name) == b"embed" and \
                find_attribute(node, _UNCLOSED) is not NULL:
            return  # still open (its tail is inside it: ignorable)
        if action == _BLOCK or action == _LABELLED:
            self.tag_level -= 1
            self.flush_requested = False
            if self.parts:
                if self.last_was_space and len(self.parts) == 1 and self.parts[0] == " ":
                    self.parts.clear()
                    self.marker_space = -1
                    self.not_shown = []
                else:
                    self.flush()
            if action == _LABELLED:
                self.open_labels.pop()
        elif action == _INLINE:
            if self.flush_requested:
                self.flush_requested = False
                if self.parts:
                    self.flush()
        elif action == _ANCHOR:
            if node == self.open_anchor:
                self.open_anchor = NULL
                if not self.in_ignorable:
                    self.add_marker(_ANCHOR_END_PART)
            self.tag_level -= 1
            if self.flush_requested:
                self.flush_requested = False
                if self.parts:
                    self.flush()
        elif action == _IGNORE:
            self.in_ignorable -= 1
            self.tag_level -= 1
            self.flush_requested = False
            if self.parts:
                self.flush()
        elif action == _BODY:
            if self.ignored_bodies and address in self.ignored_bodies:
                pass
            else:
                self.flush_requested = False
                if self.parts:
                    self.flush()
                self.in_body -= 1
                self.tag_level -= 1
        else:  # _INLINE_SPACE
            if not self.last_was_space:
                self.marker_space = len(self.parts)
                self.parts.append(" ")
                self.last_was_space = True
            if self.flush_requested:
                self.flush_requested = False
                if self.parts:
                    self.flush()
        self.text_event(text_run(node.next), parent_element(node), node)


def segment(root, bint cjk=True):
    """``parse.segment_python``, compiled (same arguments, same result)."""
    if root is None:
        return [], None
    cdef _Element element = <_Element?>root
    cdef _Segmenter seg = _Segmenter(element._doc, cjk)
    seg.walk(element._c_node)
    if seg.parts:
        seg.flush()  # endDocument
    blocks = make_blocks(
        seg.texts,
        seg.shown_texts,
        seg.token_texts,
        seg.levels,
        seg.labels,
        seg.elements,
        seg.text_of,
        seg.tail_of,
        cjk,
    )
    return blocks, seg.title
