"""The content blocks' elements as a new, clean tree.

A block knows the DOM elements whose direct text it holds (``TextBlock.elements``): those
whose own text it holds (``text_of``) and the parents of those whose tail it holds
(``tail_of``). The elements of the content
blocks are the *owners*; their ancestors carry the structure (a list around owned items,
a table around owned cells). The walk copies, in document order, only what leads to an
owner, and of each owner only the texts that are in content blocks (a ``<div>`` whose
own text is the story and whose last child's tail is "Share this article" keeps the
first only), with only the tags and attributes the renderers know (everything else
unwrapped: its text kept, its tag not), and makes links absolute. The
result is a ``<div>`` of plain lxml elements, independent of the page's tree, at most
``MAX_DEPTH`` elements deep: deeper elements are unwrapped too, so that a page nested
thousands of levels deep gives renderers (recursive, as the structures they write are) a
tree they can walk.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from typing import Any
from urllib.parse import urljoin, urlsplit

from lxml import etree

from ..document import Document, TextBlock

__all__ = ["BLOCK_TAGS", "KEPT_TAGS", "TextSlots", "content_tree", "safe_url", "xml_safe"]

#: tags copied as they are (with the attributes in ``KEPT_ATTRIBUTES``)
KEPT_TAGS = frozenset(
    "h1 h2 h3 h4 h5 h6 p ul ol li dl dt dd table thead tbody tfoot tr th td caption "
    "blockquote pre code em strong i b a img figure figcaption br hr sub sup".split()
)
KEPT_ATTRIBUTES = {
    "a": ("href",),
    "img": ("src", "alt"),
    "td": ("colspan", "rowspan"),
    "th": ("colspan", "rowspan"),
    "ol": ("start",),
}
#: unwrapped tags that still end a paragraph (copied as a <div>, a block container)
BLOCK_TAGS = frozenset(
    "div section article main header footer aside nav address center details summary "
    "form fieldset hgroup".split()
)
#: subtrees never rendered (no text of theirs reaches a block anyway)
SKIPPED_TAGS = frozenset("script style noscript template head title svg math iframe".split())
SAFE_SCHEMES = frozenset({"http", "https", "mailto", "ftp"})
#: the deepest element of the tree (1 for a child of the ``<div>``); the content of the
#: pages of the evaluation sets sits at most 42 deep
MAX_DEPTH = 100


#: what lxml refuses in a text or an attribute it is given (XML 1.0's excluded control
#: characters); the parser keeps them from the page
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")


def xml_safe(text: str) -> str:
    """``text`` with the control characters XML excludes made spaces (lxml raises on
    them; a space keeps the words apart, as the text output reads them)."""
    return _NOT_XML.sub(" ", text)


#: a link or image address longer than this is no address (servers refuse request lines
#: of more than 8 KB by default): it is dropped, the text kept. Writing one of 50 MB into
#: the Markdown and HTML took 4 s
MAX_URL_CHARS = 65_536


def safe_url(value: str | None, base: str | None) -> str | None:
    """``value`` made absolute against ``base``, or None if it is empty, longer than
    ``MAX_URL_CHARS``, cannot be parsed (``http://[::1``) or its scheme is not a plain one
    (``javascript:``, ``data:``, ``vbscript:``, ...). A base that cannot be parsed is no
    base."""
    if not value or len(value) > MAX_URL_CHARS:
        return None
    # browsers drop whitespace and control bytes inside
    value = "".join(xml_safe(value).split())
    url = _joined(base, value) or value
    try:
        scheme = urlsplit(url).scheme.lower()
    except ValueError:  # an unbalanced IPv6 bracket: a link no browser can follow
        return None
    if scheme and scheme not in SAFE_SCHEMES:
        return None
    if not scheme and not url.startswith(("/", "#", "?", ".")) and ":" in url.split("/")[0]:
        return None  # "javascript:..." that urlsplit did not parse as a scheme
    return url


def _joined(base: str | None, value: str) -> str | None:
    """``urljoin(base, value)``, or None without a base or when either cannot be parsed."""
    if not base:
        return None
    try:
        return urljoin(base, value)
    except ValueError:
        return None


def _base_url(doc: Document) -> str | None:
    # the first <base href>, as browsers read it (one they cannot resolve is ignored)
    root = doc.root
    if root is not None:
        for base in root.iter("base"):
            href = (base.get("href") or "").strip()
            if href:
                return (_joined(doc.url, href) if doc.url else href) or doc.url
            break
    return doc.url


def _owners(doc: Document) -> set[Any]:
    owners: set[Any] = set()
    for block in doc.blocks:
        if block.is_content:
            owners.update(block.elements)
    return owners


class TextSlots:
    """Which of the page's texts each of the document's blocks holds (an element's
    ``.text`` and each child's ``.tail``); a text whose block a filter removed is in
    none. One pass over the blocks' element lists: linear in the page."""

    __slots__ = ("tail_block", "text_block")

    def __init__(self, doc: Document) -> None:
        self.text_block: dict[Any, TextBlock] = {}
        self.tail_block: dict[Any, TextBlock] = {}
        for block in doc.blocks:
            # (split blocks share their lists: a text goes to the first piece)
            for element in block.text_of:
                self.text_block.setdefault(element, block)
            for element in block.tail_of:
                self.tail_block.setdefault(element, block)

    def block_of(self, owner: Any, tail_of: Any = None) -> TextBlock | None:
        """The block holding ``owner``'s ``.text`` (``tail_of`` None) or ``tail_of``'s
        ``.tail`` (``owner`` its parent); None for a text in no block (whitespace, or
        what the segmenter ignores)."""
        if tail_of is not None:
            return self.tail_block.get(tail_of)
        return self.text_block.get(owner)

    def is_content(self, owner: Any, tail_of: Any = None) -> bool:
        """Whether that text is in a content block."""
        block = self.block_of(owner, tail_of)
        return block is not None and block.is_content


def _on_the_way(owners: Iterable[Any]) -> set[Any]:
    """The owners and all their ancestors (the elements the walk must enter)."""
    seen: set[Any] = set()
    for element in owners:
        while element is not None and element not in seen:
            seen.add(element)
            element = element.getparent()
    return seen


class _PendingText:
    """Text on its way into the new tree. lxml copies a node's whole text on every read
    and write, so a text built piece by piece (a paragraph of 40,000 unwrapped
    ``<span>``: 5 s) is quadratic; each element's pieces are joined and written once, into
    its last text slot (its ``.text`` while it has no child, else its last child's
    ``.tail``), when a child is added to it and at the end."""

    __slots__ = ("last", "pieces")

    def __init__(self) -> None:
        self.pieces: dict[Any, list[str]] = {}
        self.last: dict[Any, Any] = {}  # each element's last child (len() counts them all)

    def add(self, parent: Any, text: str | None) -> None:
        if text:
            self.pieces.setdefault(parent, []).append(text)

    def child(self, parent: Any, tag: str, attrib: dict[str, str] | None = None) -> Any:
        """A new last child of ``parent``, after the text pending there."""
        if parent in self.pieces:
            self.flush(parent)
        child = self.last[parent] = etree.SubElement(parent, tag, attrib or {})
        return child

    def flush(self, parent: Any) -> None:
        text = "".join(self.pieces.pop(parent))
        last = self.last.get(parent)
        node, slot = (last, "tail") if last is not None else (parent, "text")
        try:
            setattr(node, slot, text)  # (each slot is written once: it was empty)
        except ValueError:  # a control character, which lxml refuses
            setattr(node, slot, xml_safe(text))

    def flush_all(self) -> None:
        for parent in list(self.pieces):
            self.flush(parent)


def content_tree(doc: Document) -> Any:
    """A ``<div>`` holding the content blocks' elements, cleaned (see the module's
    docstring); empty when no block is content or the page has no tree."""
    out = etree.Element("div")
    owners = _owners(doc)
    if doc.root is None or not owners:
        return out
    inside = _on_the_way(owners)
    slots = TextSlots(doc)
    base = _base_url(doc)
    pending = _PendingText()
    copy_walk(
        doc,
        out,
        pending,
        base,
        enter=inside.__contains__,
        add_text=lambda target, text, owner, tail_of: _append_own_text(
            pending, target, text, owner, tail_of, slots, owners, inside
        ),
        leave=lambda element, tag, parent: _copy_leaves(
            pending, element, tag, parent, slots, owners, inside, base
        ),
    )
    _drop_bare_wrappers(out)
    return out


def _drop_bare_wrappers(out: Any) -> None:
    """Unwrap each ``<div>`` that holds nothing but one ``<div>`` and whitespace: the
    page's layout nests its story 10 to 20 containers deep, and each was copied as a
    ``<div>``. Nothing that renders changes, and the whitespace around the inner
    ``<div>`` stays (as one space) where it kept two texts apart. One pass in document
    order, each unwrapping a constant-time replace and at most two short writes: linear."""
    for div in list(out.iter("div")):
        if div is out or len(div) != 1 or not _blank(div.text):
            continue
        child = div[0]
        if child.tag != "div" or not _blank(child.tail):
            continue
        parent = div.getparent()
        if div.text:  # the space before the inner <div>
            previous = div.getprevious()
            if previous is None:
                parent.text = _spaced(parent.text)
            else:
                previous.tail = _spaced(previous.tail)
        child.tail = _spaced(div.tail, before=True) if child.tail else div.tail
        parent.replace(div, child)


def _blank(text: str | None) -> bool:
    return not text or text.isspace()


def _spaced(text: str | None, before: bool = False) -> str:
    """``text`` with a space at its end (``before``: its start), unless one is there."""
    text = text or ""
    edge = text[:1] if before else text[-1:]
    if edge.isspace():
        return text
    return " " + text if before else text + " "


def copy_walk(
    doc: Document,
    out: Any,
    pending: _PendingText,
    base: str | None,
    enter: Callable[[Any], bool],
    add_text: Callable[[Any, str | None, Any, Any], None],
    leave: Callable[[Any, str, Any], None] | None = None,
) -> None:
    """Copy the page's body into ``out``, in document order: each element ``enter``
    accepts is copied (``_open``: kept tags and attributes, block containers as
    ``<div>``, other tags unwrapped; at most ``MAX_DEPTH`` deep) and walked into; one it
    refuses goes to ``leave(element, tag, target)`` (never a comment or a skipped tag's).
    Every text goes to ``add_text(target, text, owner, tail_of)``, ``owner`` the element
    whose direct text it is (an element's ``.text``, its parent for its ``.tail``),
    ``tail_of`` None for a ``.text``, else the element whose ``.tail`` it is."""
    body = doc.root.find("body")
    start = body if body is not None else doc.root
    # iterwalk, not recursion: pages nest deeper than Python's stack allows
    walker = etree.iterwalk(start, events=("start", "end"))
    targets = [out]  # where the copy of each open source element goes
    depths = [0]  # the depth of each target in the new tree
    for event, element in walker:
        if event == "end":
            targets.pop()
            depths.pop()
            if element is not start:
                add_text(targets[-1], element.tail, element.getparent(), element)
            continue
        parent = targets[-1]
        tag = _tag(element)
        if tag is None or tag in SKIPPED_TAGS or not enter(element):
            if leave is not None and tag is not None and tag not in SKIPPED_TAGS:
                leave(element, tag, parent)
            targets.append(parent)
            depths.append(depths[-1])
            walker.skip_subtree()
            continue
        depth = depths[-1]
        copy = _open(pending, tag, element, parent, base) if depth < MAX_DEPTH else parent
        targets.append(copy)
        depths.append(depth if copy is parent else depth + 1)
        add_text(copy, element.text, element, None)
    pending.flush_all()


def _append_own_text(
    pending: _PendingText,
    target: Any,
    text: str | None,
    owner: Any,
    tail_of: Any,
    slots: TextSlots,
    owners: set[Any],
    inside: set[Any],
) -> None:
    """An element's direct text (its ``.text``, or a child's ``.tail``) if it is in a
    content block; whitespace also when it is on the way to content (blocks never hold
    whitespace alone, yet it keeps two words apart): as it is in an element that holds
    content text, else one space."""
    if not text:
        return
    if slots.is_content(owner, tail_of):
        pending.add(target, text)
    elif owner in inside and not text.strip():
        pending.add(target, text if owner in owners else " ")


def _tag(element: Any) -> str | None:
    tag = element.tag
    if not isinstance(tag, str):  # a comment or processing instruction
        return None
    return tag.rpartition("}")[2].lower()


#: the largest value each numeric attribute keeps: the HTML standard's for the spans (a
#: larger colspan is read as 1000, a larger rowspan as 65534), CommonMark's for a list's
#: start (nine digits). Unbounded, one cell's colspan="100000000" made 100 MB of
#: Markdown, and a start of 4,000 digits indented every line of its items that far.
_NUMBER_MAX = {"colspan": 1000, "rowspan": 65534, "start": 999_999_999}


def _bounded_number(value: str, maximum: int) -> str | None:
    """A non-negative integer attribute as ASCII digits, at most ``maximum``; None when
    the value is no such integer."""
    value = value.strip()
    if not (value.isascii() and value.isdigit()):
        return None  # (str.isdigit alone takes "²", which int() refuses)
    digits = value.lstrip("0") or "0"
    if len(digits) > len(str(maximum)) or int(digits) > maximum:
        return str(maximum)
    return digits


def _open(pending: _PendingText, tag: str, element: Any, parent: Any, base: str | None) -> Any:
    if tag in BLOCK_TAGS:
        return pending.child(parent, "div")
    if tag not in KEPT_TAGS:
        return parent  # unwrapped: its text goes where it is
    copy = pending.child(parent, tag)
    for name in KEPT_ATTRIBUTES.get(tag, ()):
        value = element.get(name)
        if value is None:
            continue
        if name in ("href", "src"):
            value = safe_url(value, base)
        elif name in _NUMBER_MAX:
            value = _bounded_number(value, _NUMBER_MAX[name])
        else:
            value = xml_safe(value)
        if value:
            copy.set(name, value)
    return copy


def _copy_leaves(
    pending: _PendingText,
    element: Any,
    tag: str,
    parent: Any,
    slots: TextSlots,
    owners: set[Any],
    inside: set[Any],
    base: str | None,
) -> None:
    """What a subtree without content text still gives: line breaks and images in an
    element that holds content text (a break not beside boilerplate text), and images of
    a figure whose caption is content."""
    if tag in ("br", "hr"):
        if _break_kept(element, slots, owners):
            pending.child(parent, tag)
        return
    owned = element.getparent() in owners
    images = [element] if tag == "img" else element.iter("img")
    for count, image in enumerate(images):
        if count >= _MAX_IMAGES_PER_LEAF:
            break
        # (most subtrees without text have no image: the figure is looked for after one)
        if count == 0 and not (owned or _in_content_figure(element, inside)):
            return
        src = safe_url(image.get("src"), base)
        if src:
            copy = pending.child(parent, "img", {"src": src})
            alt = xml_safe(image.get("alt") or "").strip()
            if alt:
                copy.set("alt", alt)


def _break_kept(element: Any, slots: TextSlots, owners: set[Any]) -> bool:
    """Whether a ``<br>`` or ``<hr>`` is copied: its parent holds content text, and the
    text right after it (its tail) and right before it (its previous sibling's tail, or
    its parent's text) is content where there is any (a break between two links is
    kept, one before a dropped "Share this" line is not)."""
    parent = element.getparent()
    if parent not in owners:
        return False
    previous = element.getprevious()
    before = (parent.text, None) if previous is None else (previous.tail, previous)
    for text, tail_of in ((element.tail, element), before):
        if text and not text.isspace() and not slots.is_content(parent, tail_of):
            return False
    return True


#: images taken from one subtree without text (a link around a picture, a <picture>)
_MAX_IMAGES_PER_LEAF = 4


def _in_content_figure(element: Any, inside: set[Any]) -> bool:
    for depth, ancestor in enumerate(element.iterancestors()):
        if depth >= 4:
            return False
        if _tag(ancestor) == "figure":
            return ancestor in inside
    return False
