"""Limits on the work one page may cause, applied to the markup before it is parsed.

* **Tags.** Memory grows with the number of elements (the tree, the blocks, the features:
  a page of 500,000 tiny paragraphs took 2 GB), so only the first :data:`MAX_TAGS` start
  tags are read; the rest of the page is cut off, with a warning. The largest of the
  ~4,600 real pages of the data sets has 15,793.
* **Attributes.** libxml2 compares each attribute of an element with every earlier one,
  so one element with 100,000 attributes takes it seconds to minutes; attributes after the
  first :data:`MAX_ATTRIBUTES` of a tag are dropped, with a warning.

The scan reads the page once and tokenizes start tags as HTML5 does (and libxml2 2.14+,
which lxml uses): a start tag is ``<`` and an ASCII letter, its name, then attributes up to
the next ``>``; an attribute is a name (up to whitespace, ``/``, ``>`` or ``=``) and, after
``=``, a value: a quoted string (an unclosed quote runs to the end of the page) or the
characters up to whitespace or ``>``. A quote elsewhere is part of a name. Comments (``<!--``
to ``-->``) and the text of raw-text elements (``<script>`` to ``</script``, and
:data:`RAW_TEXT_TAGS`) hold no tags.
``_climits.pyx`` is the compiled twin of :func:`scan_python`; ``scan`` is whichever is in
use.
"""

from __future__ import annotations

import re

from ._compiled import use_twin

__all__ = [
    "COMPILED",
    "MAX_ATTRIBUTES",
    "MAX_TITLE_CHARS",
    "MAX_TAGS",
    "RAW_TEXT_TAGS",
    "limit_markup",
    "scan",
    "scan_python",
]

#: start tags read per page (3 times the largest real page of the data sets)
MAX_TAGS = 50_000
#: attributes kept per start tag
MAX_ATTRIBUTES = 1_000
#: characters kept of the page's title (5 times the longest title of the data sets, 840):
#: a crafted title of megabytes went whole into every item and into boilerpipe's title
#: matching
MAX_TITLE_CHARS = 4_096

_VALUE = r"""(?:\s*=\s*(?:"[^"]*"?|'[^']*'?|[^\s>]*))?"""
# a comment's start, or a start tag and (group 1) its name
_MARKUP = re.compile(r"<!--|<([A-Za-z][^\s/>]*)")
# a tag's separators and attributes, up to ">" (or the end), 256 at a time: one match
# over a tag of 100,000 attributes would grow the regex engine's stack for each of them
_ATTRIBUTES = re.compile(rf"(?:[\s/]+|[^\s/>][^\s/>=]*{_VALUE}){{1,256}}")
# in a tag, after its name: a separator, or an attribute (group 1: its name) and its value
_TOKEN = re.compile(rf"[\s/]+|([^\s/>][^\s/>=]*){_VALUE}")
#: elements whose text is not markup: it ends at their end tag
RAW_TEXT_TAGS = (
    "script", "style", "textarea", "title", "xmp", "iframe", "noembed", "noframes",
)  # fmt: skip
_RAW_TEXT_END = {
    name: re.compile("</" + "".join(f"[{c}{c.upper()}]" for c in name)) for name in RAW_TEXT_TAGS
}


def scan_python(html: str, max_tags: int, max_attributes: int) -> tuple[list[tuple[int, int]], int]:
    """Where the limits cut ``html``: the ``(start, end)`` spans of attributes to drop
    (each from a tag's first attribute over the limit to the end of its attributes), and
    the position of the first start tag over ``max_tags`` (-1: none)."""
    cuts: list[tuple[int, int]] = []
    # each attribute but the first takes two characters at least (a separator, or a value's
    # "=" before it): a shorter tag holds no more than max_attributes
    shortest = 2 * max_attributes - 1
    count = 0
    markup = _MARKUP.search(html)
    while markup is not None:
        pos = markup.end()
        if markup[0] == "<!--":
            end = html.find("-->", markup.start() + 4)
            pos = end + 3 if end >= 0 else len(html)
        else:
            if count == max_tags:
                return cuts, markup.start()
            count += 1
            start = end = pos
            chunk = _ATTRIBUTES.match(html, end)
            while chunk is not None:
                end = chunk.end()
                chunk = _ATTRIBUTES.match(html, end)
            pos = end + 1 if html.startswith(">", end) else end
            if end - start >= shortest:
                seen = 0
                for token in _TOKEN.finditer(html, start, end):
                    if token.start(1) >= 0:
                        seen += 1
                        if seen > max_attributes:
                            cuts.append((token.start(), end))
                            break
            name = markup[1]
            raw_end = _RAW_TEXT_END.get(name.lower()) if name.isascii() else None
            if raw_end is not None:  # its text holds no markup: on from its end tag
                found = raw_end.search(html, pos)
                pos = found.start() if found else len(html)
        markup = _MARKUP.search(html, pos)
    return cuts, -1


scan = scan_python


def limit_markup(
    html: str, max_tags: int = MAX_TAGS, max_attributes: int = MAX_ATTRIBUTES
) -> tuple[str, list[str]]:
    """``html`` within the limits (see the module docstring), and a warning for each limit
    that cut something."""
    cuts, truncate_at = scan(html, max_tags, max_attributes)
    if not cuts and truncate_at < 0:
        return html, []
    warnings: list[str] = []
    if cuts:
        pieces: list[str] = []
        pos = 0
        for start, end in cuts:
            pieces.append(html[pos:start])
            pos = end
        pieces.append(html[pos:])
        if truncate_at >= 0:  # a position in the text before the cuts
            truncate_at -= sum(end - start for start, end in cuts)
        html = "".join(pieces)
        warnings.append(
            f"attributes_limit: {len(cuts)} tags had more than {max_attributes:,} attributes; "
            "the rest of their attributes was dropped"
        )
    if truncate_at >= 0:
        html = html[:truncate_at]
        warnings.append(
            f"tags_limit: the page has more than {max_tags:,} tags; what follows the "
            f"{max_tags:,}th was not read"
        )
    return html, warnings


#: whether the compiled scan (``_climits``) is in use
COMPILED = use_twin(globals(), "scan")
