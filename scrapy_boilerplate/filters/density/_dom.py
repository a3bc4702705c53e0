"""One walk over a page's DOM, the statistics every density method reads, and labelling.

The walk is ``lxml.etree.iterwalk`` from ``<body>`` (or the root when there is none): no
recursion, so a tree of any depth is safe. It records, in document order, the elements
(numbered in pre-order) and the text runs with the tag tokens between them; everything
else (subtree sums, link statistics, tag paths) is computed from those arrays with numpy,
or in one reverse pass, so the cost is linear in the number of nodes.
"""

from __future__ import annotations

import re
from typing import Any

import numpy as np
from lxml import etree

from ..._compiled import use_twin
from ...document import Document
from ..base import Filter

__all__ = [
    "COMBINE_MODES",
    "DensityFilter",
    "EXCLUDED_TAGS",
    "LINK_TAGS",
    "VOID_TAGS",
    "DomStats",
    "check_combine",
    "check_range",
    "dom_stats",
    "label_blocks",
    "label_runs",
    "label_subtrees",
    "start_element",
]

#: tags whose text counts as link text (CETD: Sun, Song, Liao, SIGIR 2011; authors' code)
LINK_TAGS = frozenset(("a", "button", "select"))
#: elements whose content is no text of the page: code, fallbacks that a browser does not
#: render (noscript, noembed, noframes, iframe), templates, and what the block
#: segmentation ignores too (option, object, embed, applet: boilerpipe's tag actions)
EXCLUDED_TAGS = frozenset(
    ("script", "style", "noscript", "noembed", "noframes", "iframe", "template", "head",
     "option", "object", "embed", "applet")
)  # fmt: skip
#: HTML void elements: written without an end tag, so one tag token instead of two
VOID_TAGS = frozenset(
    ("area", "base", "br", "col", "embed", "hr", "img", "input", "keygen", "link", "meta",
     "param", "source", "track", "wbr")
)  # fmt: skip
#: how a filter's selection combines with the blocks' current flags
COMBINE_MODES = ("set", "and", "or")

_DISPLAY_NONE = re.compile(r"display\s*:\s*none", re.IGNORECASE).search


def check_range(name: str, value: float, low: float, high: float) -> float:
    """Validate a numeric parameter: ``low <= value <= high`` (NaN is refused), and return it.

    The bounds keep every method linear in the page: a parameter that sets how far a
    pass looks (a radius, a kernel, iterations) would otherwise let a spec, which a
    request's meta may carry, make one page stall a crawl."""
    if not low <= value <= high:
        raise ValueError(f"{name} must be between {low} and {high}, not {value!r}")
    return value


def check_combine(combine: str) -> str:
    """Validate a ``combine`` parameter (``set``, ``and`` or ``or``) and return it."""
    if combine not in COMBINE_MODES:
        raise ValueError(f"combine must be one of {COMBINE_MODES}, not {combine!r}")
    return combine


def start_element(root: Any) -> Any:
    """Where the methods start: ``<body>``, else the root itself (pages without a body)."""
    if root is None:
        return None
    if root.tag == "body":
        return root
    body = root.find("body")
    return root if body is None else body


class DomStats:
    """What one walk over a page's DOM gathers.

    Elements are numbered in pre-order from the start element (0); the subtree of element
    ``i`` is the index range ``i .. end[i] - 1``. Arrays per element: ``parent`` (-1 for
    the start), ``end``, ``nchild`` (child elements), ``own`` (characters of the element's
    own text runs), ``C`` (characters of its subtree), ``T`` (tags below it: the sum of
    T + 1 over the children, 0 for a leaf), ``link`` (A, BUTTON or SELECT). Computed on
    first use: ``LC``, ``LT``, ``in_link`` and the tag paths (``path``, and the trie
    ``path_parent`` / ``path_tag`` / ``path_depth``).

    Text runs (the DOM's text nodes: an element's ``.text`` and its children's ``.tail``),
    in document order: ``run_owner`` (the element the run is directly in), ``run_len``
    (characters: non-whitespace), ``run_text`` and ``run_tags`` (tag tokens met since the
    previous run: start and end tags, comments); ``tags_after`` counts the tags after the
    last run. Runs of whitespace only are kept if they hold a line break (for CETR), with
    length 0.
    """

    def __init__(
        self,
        elements: list[Any],
        tags: list[str],
        parent: list[int],
        end: list[int],
        run_owner: list[int],
        run_len: list[int],
        run_text: list[str],
        run_tags: list[int],
        tags_after: int,
    ) -> None:
        n = len(elements)
        self.elements = elements
        self.tags = tags
        self.parent = np.array(parent, dtype=np.intp)
        self.end = np.array(end, dtype=np.intp)
        self.run_owner = np.array(run_owner, dtype=np.intp)
        self.run_len = np.array(run_len, dtype=np.float64)
        self.run_text = run_text
        self.run_tags = np.array(run_tags, dtype=np.int64)
        self.tags_after = tags_after
        self.own = np.bincount(self.run_owner, weights=self.run_len, minlength=n)
        self.C = self.subtree_sum(self.own)
        self.T = (self.end - np.arange(n) - 1).astype(np.float64)
        self.nchild = np.bincount(self.parent[1:], minlength=n) if n else np.zeros(0, np.intp)
        self.link = np.fromiter((t in LINK_TAGS for t in tags), dtype=bool, count=n)
        self._index: dict[Any, int] | None = None
        self._links: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None
        self._paths: tuple[np.ndarray, list[int], list[str], list[int]] | None = None

    @property
    def n(self) -> int:
        """Number of elements walked."""
        return len(self.elements)

    @property
    def index(self) -> dict[Any, int]:
        """Element -> pre-order index."""
        if self._index is None:
            self._index = dict(zip(self.elements, range(self.n), strict=True))
        return self._index

    def subtree_sum(self, values: np.ndarray) -> np.ndarray:
        """Per element, the sum of the per-element ``values`` over its subtree."""
        prefix = np.concatenate(([0.0], np.cumsum(values, dtype=np.float64)))
        return prefix[self.end] - prefix[: self.n]

    # -- link statistics (CETD's LC and LT) ----------------------------------------------
    def _link_stats(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        if self._links is not None:
            return self._links
        n = self.n
        link = self.link
        C = self.C
        # links among the ancestors-or-self of each element: +1 over each link's subtree
        diff = np.zeros(n + 1, dtype=np.intp)
        where = np.flatnonzero(link)
        np.add.at(diff, where, 1)
        np.add.at(diff, self.end[where], -1)
        k = np.cumsum(diff[:n])
        above = k - link  # link ancestors, strictly above
        # LC: a link has all of C; another element sums the links below it that have no
        # link between them and it (those whose count is its own count + 1)
        LC = np.zeros(n)
        for level in np.unique(above[~link]).tolist():
            outer = np.where(link & (k == level + 1), C, 0.0)
            sums = self.subtree_sum(outer)
            chosen = ~link & (above == level)
            LC[chosen] = sums[chosen]
        LC[link] = C[link]
        # LT: one reverse pre-order pass (children before their parents)
        T = self.T.tolist()
        LCl = LC.tolist()
        Cl = C.tolist()
        linkl = link.tolist()
        parent = self.parent.tolist()
        LT = [0.0] * n
        for i in range(n - 1, -1, -1):
            t = T[i]
            if linkl[i]:
                LT[i] = t
                up = t + 1.0
            else:
                lt = LT[i]
                up = lt + 1.0 if (lt == t and LCl[i] == Cl[i] and lt) else lt
            p = parent[i]
            if p >= 0:
                LT[p] += up
        self._links = (LC, np.array(LT), k > 0)
        return self._links

    @property
    def LC(self) -> np.ndarray:
        """Link characters: all of C for a link tag, else the sum over the children."""
        return self._link_stats()[0]

    @property
    def LT(self) -> np.ndarray:
        """Link tags: T for a link tag; else the children's LT, plus one per child that is
        a link tag or made only of links (LT = T != 0 and LC = C)."""
        return self._link_stats()[1]

    @property
    def in_link(self) -> np.ndarray:
        """Whether the element is a link tag or inside one."""
        return self._link_stats()[2]

    # -- tag paths (CEPR, CETD-TPC) -------------------------------------------------------
    def _tag_paths(self) -> tuple[np.ndarray, list[int], list[str], list[int]]:
        if self._paths is None:
            ids: dict[tuple[int, str], int] = {}
            path_parent: list[int] = []
            path_tag: list[str] = []
            path_depth: list[int] = []
            path: list[int] = []
            parent = self.parent.tolist()
            for tag, p in zip(self.tags, parent, strict=True):
                pp = path[p] if p >= 0 else -1
                key = (pp, tag)
                pid = ids.get(key)
                if pid is None:
                    pid = ids[key] = len(path_tag)
                    path_parent.append(pp)
                    path_tag.append(tag)
                    path_depth.append(path_depth[pp] + 1 if pp >= 0 else 1)
                path.append(pid)
            self._paths = (np.array(path, dtype=np.intp), path_parent, path_tag, path_depth)
        return self._paths

    @property
    def path(self) -> np.ndarray:
        """Per element, the id of its tag path (the tags from the start element down)."""
        return self._tag_paths()[0]

    @property
    def path_parent(self) -> list[int]:
        """Per path id, the id of the path one tag shorter (-1 for the start's)."""
        return self._tag_paths()[1]

    @property
    def path_tag(self) -> list[str]:
        """Per path id, its last tag."""
        return self._tag_paths()[2]

    @property
    def path_depth(self) -> list[int]:
        """Per path id, its length in tags."""
        return self._tag_paths()[3]


def dom_stats(root: Any, skip_hidden: bool = True) -> DomStats | None:
    """Walk the page from :func:`start_element` once and gather :class:`DomStats`.

    Ignores the content of :data:`EXCLUDED_TAGS` and comments (their tags and tails count)
    and, with ``skip_hidden``, of elements with the ``hidden`` attribute or an inline
    ``display: none``. Returns None when there is no tree.
    """
    start = start_element(root)
    if start is None:
        return None
    return DomStats(*walk(start, skip_hidden))


def walk_python(start: Any, skip_hidden: bool) -> tuple:
    """The walk behind :func:`dom_stats`: the lists ``DomStats`` is made of, and the tag
    tokens after the last run. ``_cdom.pyx`` is its compiled twin; ``walk`` is whichever
    is available."""
    elements: list[Any] = []
    tags: list[str] = []
    parent: list[int] = []
    end: list[int] = []
    run_owner: list[int] = []
    run_len: list[int] = []
    run_text: list[str] = []
    run_tags: list[int] = []
    pending = 0  # tag tokens since the last run
    stack: list[int] = []  # open elements; -1: an ignored one (its subtree is skipped)
    excluded = EXCLUDED_TAGS
    void = VOID_TAGS
    display_none = _DISPLAY_NONE
    walker = etree.iterwalk(start, events=("start", "end", "comment", "pi"))
    for event, el in walker:
        if event == "start":
            pending += 1
            tag = el.tag
            if stack and (
                tag in excluded
                or (
                    skip_hidden
                    and (
                        el.get("hidden") is not None
                        or ((style := el.get("style")) and display_none(style))
                    )
                )
            ):
                walker.skip_subtree()
                stack.append(-1)
                continue
            i = len(elements)
            elements.append(el)
            tags.append(tag)
            parent.append(stack[-1] if stack else -1)
            end.append(0)
            stack.append(i)
            text = el.text
            if text:
                if not text.isspace():
                    run_owner.append(i)
                    run_len.append(len("".join(text.split())))
                    run_text.append(text)
                    run_tags.append(pending)
                    pending = 0
                elif "\n" in text:
                    run_owner.append(i)
                    run_len.append(0)
                    run_text.append(text)
                    run_tags.append(pending)
                    pending = 0
            continue
        if event == "end":
            i = stack.pop()
            if el.tag not in void:
                pending += 1
            if i >= 0:
                end[i] = len(elements)
            if not stack:
                break  # the start element's tail is not part of the page's body
        else:  # a comment or processing instruction: one tag token; its tail is text
            pending += 1
        tail = el.tail
        if tail:
            if not tail.isspace():
                run_owner.append(stack[-1])
                run_len.append(len("".join(tail.split())))
                run_text.append(tail)
                run_tags.append(pending)
                pending = 0
            elif "\n" in tail:
                run_owner.append(stack[-1])
                run_len.append(0)
                run_text.append(tail)
                run_tags.append(pending)
                pending = 0
    return elements, tags, parent, end, run_owner, run_len, run_text, run_tags, pending


walk = walk_python
#: whether the compiled walk (``_cdom``) is in use
COMPILED = use_twin(globals(), "walk")


# -- labelling blocks ------------------------------------------------------------------------
def label_blocks(
    doc: Document, stats: DomStats, inside: np.ndarray, total: np.ndarray, combine: str = "set"
) -> bool:
    """Label the blocks from per-element weights of selected (``inside``) and all text.

    A block is selected when at least half of the weight of its ``elements`` (the elements
    its text is directly in) is selected: ``sum(inside) * 2 >= sum(total) > 0``. Elements
    the walk did not see (ignored, hidden, or outside the start element) weigh 1 and are
    never selected. Blocks without elements (made up by other filters) are left alone.

    ``combine``: ``"set"`` makes the selection the block's flag; ``"and"`` keeps a block
    only if it was content already and is selected; ``"or"`` adds the selected blocks.
    Returns True if any flag changed.
    """
    check_combine(combine)
    index = stats.index
    ins = inside.tolist()
    tot = total.tolist()
    changed = False
    for block in doc.blocks:
        elements = block.elements
        if not elements:
            continue
        a = b = 0.0
        for el in elements:
            i = index.get(el)
            if i is None:
                b += 1.0
            else:
                a += ins[i]
                b += tot[i]
        selected = b > 0 and a * 2 >= b
        if combine == "and":
            selected = selected and block.is_content
        elif combine == "or":
            selected = selected or block.is_content
        if selected != block.is_content:
            block.is_content = selected
            changed = True
    return changed


def label_subtrees(doc: Document, stats: DomStats, selected: np.ndarray, combine: str) -> bool:
    """Label blocks from a per-element selection (whole elements, e.g. subtrees): each
    element weighs its own characters + 1 (so that whitespace-only elements count too)."""
    total = stats.own + 1.0
    return label_blocks(doc, stats, np.where(selected, total, 0.0), total, combine)


def label_runs(doc: Document, stats: DomStats, run_selected: np.ndarray, combine: str) -> bool:
    """Label blocks from a per-run selection: an element weighs the characters of its
    selected runs against all of its runs' characters."""
    n = stats.n
    length = stats.run_len
    total = np.bincount(stats.run_owner, weights=length, minlength=n)
    inside = np.bincount(stats.run_owner, weights=np.where(run_selected, length, 0.0), minlength=n)
    return label_blocks(doc, stats, inside, total, combine)


class DensityFilter(Filter):
    """Base of the density filters: the walk, with the guard for empty documents.

    Subclasses keep ``skip_hidden`` and ``combine`` as attributes (constructor arguments).
    """

    skip_hidden: bool = True
    combine: str = "set"

    def stats(self, doc: Document) -> DomStats | None:
        """The DOM statistics of ``doc``, or None when there is nothing to label."""
        if doc.root is None or not doc.blocks:
            return None
        stats = dom_stats(doc.root, self.skip_hidden)
        doc.check_deadline()
        if stats is None or stats.n == 0:
            return None
        return stats
