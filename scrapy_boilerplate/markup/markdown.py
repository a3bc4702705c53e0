"""The clean content tree (``tree.content_tree``) as CommonMark, tables as GFM pipe
tables (the extension every Markdown consumer reads).

Blocks are separated by a blank line; inline text has its whitespace collapsed and the
characters Markdown would read as syntax escaped, so that the Markdown's text is the
content's text.

Each level of quotes, lists and inline markup goes over the text inside it once more (to
prefix, indent or trim it): past ``MAX_NESTING`` levels of quotes and lists, or
``MAX_INLINE_NESTING`` of inline elements, what is inside is written as plain blocks or
plain text, which keeps a page nested hundreds of levels deep to a few passes over its
text.
"""

from __future__ import annotations

import re
from typing import Any

__all__ = ["render_markdown"]

_ESCAPED = re.compile(r"([\\`*_\[\]<>|])")
#: each of those characters with a backslash before it (str.translate: a substitution
#: with a template expands the template in Python per match, 18 times slower on a page
#: made of them)
_ESCAPE_TABLE = str.maketrans({c: "\\" + c for c in "\\`*_[]<>|"})
#: at the start of a line: what would open a heading, quote, list or thematic break
_LINE_START = re.compile(r"^(\s*)([#>+-]|=+\s*$|\d+[.)])")
_LIST_START = re.compile(r"(- |\d+\. )")
_INLINE_TAGS = frozenset("a em strong i b code img br sub sup".split())
#: the marks around an emphasised element's Markdown
_EMPHASIS = {"em": ("*", "*"), "i": ("*", "*"), "strong": ("**", "**"), "b": ("**", "**")}
_HEADINGS = {"h1": 1, "h2": 2, "h3": 3, "h4": 4, "h5": 5, "h6": 6}
#: levels of quotes and lists written as such
MAX_NESTING = 8
#: levels of inline elements written as such (block elements met inline count: a
#: table's cells hold divs, spans, links, ... 20 levels deep on some real pages)
MAX_INLINE_NESTING = 32


def render_markdown(tree: Any) -> str:
    """The tree as Markdown ("" for an empty tree)."""
    blocks = _blocks(tree)
    return "\n\n".join(b for b in blocks if b.strip())


def _escape(text: str) -> str:
    # (most texts have nothing to escape: a search is cheaper than a substitution)
    return text.translate(_ESCAPE_TABLE) if text and _ESCAPED.search(text) else text


def _inline(element: Any, depth: int = 0) -> str:
    """The inline Markdown of an element's text and inline children (whitespace
    collapsed; block children rendered as their text)."""
    parts: list[str] = []
    _inline_parts(element, depth, parts)
    return _squash("".join(parts))


def _inline_child(child: Any, depth: int = 0) -> str:
    """The inline Markdown of one child (see :func:`_inline`)."""
    parts: list[str] = []
    _child_parts(child, depth, parts)
    return _squash("".join(parts))


def _squash(text: str) -> str:
    # keep hard breaks ("\\\n") from <br>, collapse all other whitespace
    if "\\\n" not in text:
        return " ".join(text.split())
    return "\\\n".join(" ".join(piece.split()) for piece in text.split("\\\n"))


# The inline Markdown is built as one list of pieces, whitespace collapsed once at the end
# (by the caller): squashing each element's text as it was wrapped went over the text
# inside it once per level of nesting (32 levels of <b> around 16 MB of words: 10 s).


def _text_part(text: str | None, parts: list[str]) -> bool:
    """Append an element's text or tail, escaped; True if it holds more than spaces."""
    if not text:
        return False
    parts.append(_escape(text))
    return not text.isspace()


def _inline_parts(element: Any, depth: int, parts: list[str]) -> bool:
    """Append the pieces of an element's text and inline children; True if any holds
    more than whitespace (what a squash would not empty)."""
    found = _text_part(element.text, parts)
    for child in element:
        found |= _child_parts(child, depth, parts)
        found |= _text_part(child.tail, parts)
    return found


def _trimmed(parts: list[str], start: int) -> None:
    """Trim the whitespace at both ends of ``parts[start:]``, as a squash of their text
    would (only the pieces at the ends are touched)."""
    for i in range(start, len(parts)):
        parts[i] = parts[i].lstrip()  # (a hard break, "\\\n", starts with no space)
        if parts[i]:
            break
    for i in range(len(parts) - 1, start - 1, -1):
        piece = parts[i]
        trimmed = piece.rstrip()
        if trimmed.endswith("\\") and piece[len(trimmed) : len(trimmed) + 1] == "\n":
            # a hard break at the end, which a squash keeps: squashed whole (rare)
            squashed = _squash(piece)
            trimmed = " " + squashed if squashed and piece[:1].isspace() else squashed
        parts[i] = trimmed
        if trimmed:
            break


def _child_parts(child: Any, depth: int, parts: list[str]) -> bool:
    """Append the pieces of one inline child; True if it added any."""
    tag = child.tag
    if tag == "br":
        parts.append("\\\n")
        return True
    if tag == "img":
        alt = _escape(child.get("alt", ""))
        parts.append(f"![{alt}]({_destination(child.get('src', ''))})")
        return True
    if depth >= MAX_INLINE_NESTING:  # plain text: markup this deep means nothing to a reader
        text = _escape(" ".join("".join(child.itertext()).split()))
        parts.append(text)
        return bool(text)
    if tag == "code":
        if not _inline_parts(child, depth + 1, []):
            return False
        raw = " ".join("".join(child.itertext()).split())
        fence = "`" * (_longest_run(raw, "`") + 1)
        pad = " " if raw.startswith("`") or raw.endswith("`") else ""
        parts.append(f"{fence}{pad}{raw}{pad}{fence}")
        return True
    href = child.get("href") if tag == "a" else None
    if href:
        opening, closing = "[", f"]({_destination(href)})"
    else:  # sub, sup, a link without an address, block tags met inline: their text alone
        opening, closing = _EMPHASIS.get(tag, ("", ""))
    parts.append(opening)
    start = len(parts)
    if not _inline_parts(child, depth + 1, parts):
        del parts[start - 1 :]
        return False
    _trimmed(parts, start)
    parts.append(closing)
    return True


def _destination(url: str) -> str:
    # <...> keeps spaces and parentheses in a link destination
    if any(c in url for c in " ()<>"):
        return "<" + url.replace("<", "%3C").replace(">", "%3E") + ">"
    return url


def _longest_run(text: str, char: str) -> int:
    runs = re.findall(re.escape(char) + "+", text)
    return max((len(r) for r in runs), default=0)


def _paragraph(text: str) -> str:
    """An inline run as a paragraph: a line that would open a block is escaped."""
    lines = text.split("\n")
    return "\n".join(
        _LINE_START.sub(lambda m: m.group(1) + "\\" + m.group(2), line) for line in lines
    )


def _blocks(container: Any, depth: int = 0) -> list[str]:
    """The Markdown blocks of a container's children, inline runs as paragraphs
    (``depth``: the quotes and lists around the container)."""
    blocks: list[str] = []
    run = [_escape(container.text or "")]

    def flush() -> None:
        text = _squash("".join(run)) if run else ""
        if text.strip():
            blocks.append(_paragraph(text.strip()))
        run.clear()

    for child in container:
        if child.tag in _INLINE_TAGS:
            _child_parts(child, 0, run)  # (squashed with the run, once)
        else:
            flush()
            blocks.extend(_block(child, depth))
        run.append(_escape(child.tail or ""))
    flush()
    return blocks


def _block(element: Any, depth: int = 0) -> list[str]:
    tag = element.tag
    nested = depth < MAX_NESTING  # past that, quotes and lists are plain blocks
    if tag in _HEADINGS:
        text = _inline(element).replace("\\\n", " ")
        return [f"{'#' * _HEADINGS[tag]} {text}"] if text else []
    if tag in ("ul", "ol") and nested:
        return [_list(element, depth + 1)] if len(element) else _blocks(element, depth)
    if tag == "blockquote" and nested:
        inner = "\n\n".join(_blocks(element, depth + 1))
        return (
            ["\n".join(f"> {line}" if line else ">" for line in inner.split("\n"))] if inner else []
        )
    if tag == "pre":
        code = "".join(element.itertext()).strip("\n")
        fence = "`" * max(3, _longest_run(code, "`") + 1)
        return [f"{fence}\n{code}\n{fence}"] if code.strip() else []
    if tag == "table":
        return _table(element)
    if tag == "hr":
        return ["---"]
    return _blocks(element, depth)  # p, div, figure, li outside a list, dl, dt, dd, ...


def _list(element: Any, depth: int) -> str:
    ordered = element.tag == "ol"
    number = int(element.get("start", "1") or 1) if ordered else 0
    items: list[str] = []
    for child in element:
        if child.tag in _INLINE_TAGS:
            inner = _inline_child(child)
        else:
            # a nested list follows its item's text directly: the list stays tight
            inner = ""
            for block in _blocks(child, depth):
                glue = "\n" if _LIST_START.match(block) and inner else "\n\n"
                inner = inner + glue + block if inner else block
        if not inner.strip():
            continue
        marker = f"{number}. " if ordered else "- "
        number += 1
        pad = " " * len(marker)
        lines = inner.split("\n")
        items.append(
            marker + lines[0] + "".join(f"\n{pad}{line}" if line else "\n" for line in lines[1:])
        )
    loose = any("\n\n" in item for item in items)
    return ("\n\n" if loose else "\n").join(items)


#: empty cells a table may gain (its colspans, its short rows padded to the widest) beyond
#: this many plus four per cell it has: a crafted table (a row of 10,000 cells over
#: 10,000 rows of one) would otherwise make Markdown quadratic in the page
_PADDING_CELLS = 1000


def _table(table: Any) -> list[str]:
    rows: list[list[str]] = []
    caption = ""
    cells_seen = padded = 0
    for element in table.iter("tr", "caption"):
        if next(element.iterancestors("table"), None) is not table:
            continue  # a nested table's: its cells' text is in the outer cell's
        if element.tag == "caption":
            caption = _inline(element)
            continue
        # cells of this row only (not of a table nested in a cell)
        cells = [c for c in element if c.tag in ("td", "th")]
        row = []
        for cell in cells:
            text = _inline(cell).replace("\\\n", " ").replace("\n", " ")
            row.append(text)
            cells_seen += 1
            # (the content tree keeps colspan as digits, at most 1000)
            span = min(int(cell.get("colspan", "1") or 1) - 1, _padding_left(cells_seen, padded))
            if span > 0:
                row += [""] * span
                padded += span
        if any(row):
            rows.append(row)
    if not rows:
        return [caption] if caption else []
    width = max(len(r) for r in rows)
    short = sum(width - len(r) for r in rows)
    if short <= _padding_left(cells_seen, padded):
        rows = [r + [""] * (width - len(r)) for r in rows]
    else:  # only the header row: GFM gives the shorter rows' missing cells
        rows[0] = rows[0] + [""] * (width - len(rows[0]))
    lines = ["| " + " | ".join(rows[0]) + " |", "|" + "---|" * width]
    lines += ["| " + " | ".join(r) + " |" for r in rows[1:]]
    out = ["\n".join(lines)]
    if caption:
        out.insert(0, caption)
    return out


def _padding_left(cells: int, padded: int) -> int:
    return max(_PADDING_CELLS + 4 * cells - padded, 0)
