"""The collapsed DOM over a page's blocks (Web2Text's section 2.2, on our blocks), and the
class / id keyword flags of our extension columns.

Walking up from a block's anchor (the lowest common ancestor of the elements its text
came from), an ancestor holds the same number of blocks as the child below it exactly
when all its text lies in that child, so it is merged into it; the collapsed parent of a
block is the deepest ancestor group holding at least two blocks, the grandparent the next
group up, the root the group holding every block.

``_cstructure.pyx`` is the compiled twin of :func:`collapsed_dom_python` and
:func:`keyword_bits_python`; ``collapsed_dom`` and ``keyword_bits`` are whichever is in use.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from .._compiled import use_twin
from .columns import EXT_TAGS, KEYWORD_GROUPS, TAG_BITS

__all__ = [
    "COMPILED",
    "STRUCTURE_FIELDS",
    "Structure",
    "collapsed_blocks",
    "collapsed_dom",
    "collapsed_dom_python",
    "keyword_bits",
    "keyword_bits_python",
]

# block-level tags of algorithms.md 2.2 (used for the edge feature block_break)
_BLOCK_TAGS = frozenset(
    """address article aside blockquote body canvas center checkbox dd div dl fieldset figcaption
    figure footer form h1 h2 h3 h4 h5 h6 head header hgroup hr html iframe input li main nav
    noscript ol output p pre radio section select table tbody td textarea tfoot thead tr ul video
    br""".split()
)
_FORM_TAGS = ("input",)


def _anchor(elements: Sequence[Any]) -> Any:
    """The lowest common ancestor of a block's elements (None if it has none)."""
    if not elements:
        return None
    first = elements[0]
    if len(elements) == 1:
        return first
    chain = [first]
    chain.extend(first.iterancestors())
    index = {id(e): i for i, e in enumerate(chain)}
    best = 0
    for el in elements[1:]:
        e = el
        while e is not None and id(e) not in index:
            e = e.getparent()
        if e is None:
            return chain[-1]
        i = index[id(e)]
        if i > best:
            best = i
    return chain[best]


# Words in the class and id attributes (columns.KEYWORD_GROUPS), found by this matcher.
def _literal_pattern(literal: str) -> str:
    before = "(?<![a-z])" if literal.startswith("^") else ""
    after = "(?![a-z])" if literal.endswith("$") else ""
    return before + re.escape(literal.strip("^$")) + after


#: the Python twin's matcher: leftmost match first, alternatives in table order, and
#: scanning resumes after a match (``_cstructure.keyword_bits`` does the same by hand)
_KW_RE = re.compile(
    "|".join(
        f"(?P<{name}>{'|'.join(_literal_pattern(lit) for lit in literals)})"
        for name, literals in KEYWORD_GROUPS
    )
)
_KW_BIT = {n: 1 << i for i, (n, _) in enumerate(KEYWORD_GROUPS)}
_HIDDEN_BIT = 1 << len(KEYWORD_GROUPS)
_EXT_TAG_BIT = {t: 1 << (len(KEYWORD_GROUPS) + 1 + i) for i, t in enumerate(EXT_TAGS)}
_HIDDEN_STYLE_RE = re.compile(r"display\s*:\s*none|visibility\s*:\s*hidden", re.IGNORECASE)
_kw_cache: dict[str, int] = {}


def keyword_bits_python(key: str) -> int:
    """The keyword groups found in a class / id string, as bits (cached).

    No keyword literal matches whitespace, so the string's matches are those of its
    whitespace-separated words, each scanned alone; words recur from page to page far more
    than whole attribute strings, so they are what the cache keeps (beside the strings).
    ``_cstructure.keyword_bits`` is the compiled twin (no cache: a scan costs less than a
    lookup there); ``keyword_bits`` is whichever is available.
    """
    got = _kw_cache.get(key)
    if got is not None:
        return got
    got = 0
    for word in key.split():
        word_bits = _kw_cache.get(word)
        if word_bits is None:
            word_bits = 0
            for m in _KW_RE.finditer(word.lower()):
                word_bits |= _KW_BIT[m.lastgroup]  # type: ignore[index]
            if len(_kw_cache) < 100_000:
                _kw_cache[word] = word_bits
        got |= word_bits
    if len(_kw_cache) < 100_000:
        _kw_cache[key] = got
    return got


keyword_bits = keyword_bits_python


def _ext_bits(tag: str, cls: Any, keys: list[str], el: Any) -> int:
    """Extension flags of one element with attributes (``keys``)."""
    bits = _EXT_TAG_BIT.get(tag, 0)
    ident = el.get("id") if "id" in keys else None
    if cls or ident:
        bits |= keyword_bits(f"{cls or ''} {ident or ''}")
    if "hidden" in keys or "style" in keys or "aria-hidden" in keys:
        style = el.get("style")
        if (
            "hidden" in keys
            or el.get("aria-hidden") == "true"
            or (style and _HIDDEN_STYLE_RE.search(style))
        ):
            bits |= _HIDDEN_BIT
    return bits


#: what :func:`collapsed_dom_python` returns, in order (per block, per edge, per node)
STRUCTURE_FIELDS = (
    "parent",
    "gp",
    "lca",
    "edge_dist",
    "edge_break",
    "node_first",
    "node_last",
    "node_form",
    "group_tags",
    "leaf_tags",
    "class_path",
    "ext_bits",
    "depth",
    "parent_count",
)


def collapsed_dom_python(blocks: Sequence[Any], root: Any) -> tuple[list[Any], ...]:
    """The collapsed DOM over the blocks, as the lists of :data:`STRUCTURE_FIELDS`.

    Per block: its collapsed parent and grandparent node (-1: none), its leaf tag bits,
    class path hash, extension flags, anchor depth and the parent's block count; per pair
    of adjacent blocks: their lowest common node, tree distance and block break; per node
    (0 is a virtual root, the others elements in pre-order): its first and last block,
    whether a form element lies below it, and its group's tag bits. ``_cstructure.pyx``
    is the compiled twin; ``collapsed_dom`` is whichever is available.
    """
    n = len(blocks)
    # nodes: 0 is a virtual root above everything; others are elements, in pre-order
    node_el: list[Any] = [None]
    node_parent = [-1]
    node_first = [0]
    node_last = [n - 1]
    node_depth = [0]
    node_of: dict[int, int] = {}
    stack_el: list[Any] = []
    stack_id: list[int] = [0]
    anchors = [0] * n
    lca = [0] * max(n - 1, 0)
    leaf_extra_tags = [0] * n
    tag_bits = TAG_BITS
    for i, block in enumerate(blocks):
        elements = block.elements
        a = _anchor(elements)
        for el in elements:
            tag = el.tag
            if isinstance(tag, str):
                leaf_extra_tags[i] |= tag_bits.get(tag, 0)
        new: list[Any] = []
        e = a
        while e is not None and id(e) not in node_of:
            new.append(e)
            e = e.getparent()
        # keep the stack = the ancestors of e (inclusive)
        if e is None:
            k = 0
        else:
            k = node_depth[node_of[id(e)]]
        while len(stack_el) > k:
            el = stack_el.pop()
            nid = stack_id.pop()
            node_last[nid] = i - 1
            del node_of[id(el)]
        if i > 0:
            lca[i - 1] = stack_id[-1]
        parent_id = stack_id[-1]
        for el in reversed(new):
            nid = len(node_el)
            node_el.append(el)
            node_parent.append(parent_id)
            node_first.append(i)
            node_last.append(i)
            node_depth.append(len(stack_el) + 1)
            node_of[id(el)] = nid
            stack_el.append(el)
            stack_id.append(nid)
            parent_id = nid
        anchors[i] = stack_id[-1]
    while len(stack_el) > 0:
        stack_el.pop()
        node_last[stack_id.pop()] = n - 1
    # the elements stay referenced by node_el, so id() keys remain valid
    m = len(node_el)
    count = [node_last[j] - node_first[j] + 1 for j in range(m)]
    group = list(range(m))  # top node of the collapsed group
    above = [-1] * m  # nearest strict ancestor holding more blocks
    cdepth = [0] * m  # collapsed depth (number of groups above)
    group_tags = [0] * m  # tag bits of each group (at its top node)
    blockdepth = [0] * m  # depth of the deepest block-tag element at or above the node
    path = [0] * m  # hash of the class path (tag.class of node and ancestors)
    ext = [0] * m  # extension flags of the node and its ancestors (class/id words, tags)
    ext_bits = _ext_bits
    ext_tag_bit = _EXT_TAG_BIT.get
    for j in range(1, m):
        p = node_parent[j]
        el = node_el[j]
        tag = el.tag if isinstance(el.tag, str) else ""
        if count[p] == count[j] and p != 0:
            group[j] = group[p]
            above[j] = above[p]
            cdepth[j] = cdepth[p]
        else:
            above[j] = p
            cdepth[j] = cdepth[p] + 1
        group_tags[group[j]] |= tag_bits.get(tag, 0)
        blockdepth[j] = node_depth[j] if tag in _BLOCK_TAGS else blockdepth[p]
        keys = el.keys()
        if keys:
            cls = el.get("class")
            ext[j] = ext[p] | ext_bits(tag, cls, keys, el)
        else:
            cls = None
            ext[j] = ext[p] | ext_tag_bit(tag, 0)
        path[j] = hash((path[p], tag, cls))
    # form elements: mark the nearest node above each, then propagate upwards
    node_form = [False] * m
    if root is not None and n:
        forms = list(root.iter(*_FORM_TAGS))
        if forms:
            index = {id(el): j for j, el in enumerate(node_el) if el is not None}
            for el in forms:
                e = el
                while e is not None and id(e) not in index:
                    e = e.getparent()
                if e is not None:
                    node_form[index[id(e)]] = True
            for j in range(m - 1, 0, -1):
                if node_form[j]:
                    node_form[node_parent[j]] = True
    return collapsed_blocks(
        anchors,
        lca,
        leaf_extra_tags,
        node_first,
        node_last,
        node_depth,
        node_form,
        count,
        group,
        above,
        cdepth,
        group_tags,
        blockdepth,
        path,
        ext,
    )


def collapsed_blocks(
    anchors: list[int],
    lca: list[int],
    leaf_extra_tags: list[int],
    node_first: list[int],
    node_last: list[int],
    node_depth: list[int],
    node_form: list[bool],
    count: list[int],
    group: list[int],
    above: list[int],
    cdepth: list[int],
    group_tags: list[int],
    blockdepth: list[int],
    path: list[int],
    ext: list[int],
) -> tuple[list[Any], ...]:
    """The lists of :data:`STRUCTURE_FIELDS` from the collapsed DOM's node tables (per
    block: its anchor node, its leaf tag bits; per pair of blocks: their lowest common node;
    per node: see :func:`collapsed_dom_python`). Nothing here reads the DOM; the compiled
    twin does the same on its C arrays."""
    n = len(anchors)
    m = len(node_first)
    # per block: parent and grandparent groups
    parent = [-1] * n
    gp = [-1] * n
    leaf_tags = [0] * n
    class_path = [0] * n
    for i in range(n):
        a = anchors[i]
        leaf_tags[i] = leaf_extra_tags[i]
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
            g = above[p] if p != 0 else -1
            gp[i] = g
    # edges: tree distance and block break
    dist = [0] * max(n - 1, 0)
    brk = [False] * max(n - 1, 0)
    for i in range(n - 1):
        lc = lca[i]
        pa, pb = parent[i], parent[i + 1]
        da = cdepth[pa] - cdepth[lc] if pa > 0 else 0
        db = cdepth[pb] - cdepth[lc] if pb > 0 else 0
        dist[i] = da + db + 2
        depth_l = node_depth[lc]
        aa, ab = anchors[i], anchors[i + 1]
        brk[i] = aa == ab or blockdepth[aa] > depth_l or blockdepth[ab] > depth_l
    return (
        parent,
        gp,
        lca,
        dist,
        brk,
        node_first,
        node_last,
        node_form,
        [group_tags[group[j]] for j in range(m)],
        leaf_tags,
        class_path,
        [ext[a] for a in anchors],
        [node_depth[a] for a in anchors],
        [count[p] if p >= 0 else 1 for p in parent],
    )


collapsed_dom = collapsed_dom_python


class Structure:
    """The collapsed DOM over a page's blocks (see the module docstring)."""

    __slots__ = STRUCTURE_FIELDS

    def __init__(self, blocks: Sequence[Any], root: Any) -> None:
        for name, value in zip(STRUCTURE_FIELDS, collapsed_dom(blocks, root), strict=True):
            setattr(self, name, value)


#: whether the compiled collapsed-DOM pass and keyword scan (``_cstructure``) are in use;
#: looked up last, as the twin reads this module's tables
COMPILED = use_twin(globals(), "collapsed_dom", "keyword_bits")
