#!/usr/bin/env python
"""Do columns from where a block's links point help the default labeler?

    python -m benchmarks.boosted_link_targets [--unseen] [--seed N]

The trees know how much of a block is linked, not where its links go. A story's inline
links are few, short and often point to other sites; a teaser list, a "related" box or a
section menu links to the site's own stories, under headline-long anchor texts, at
dated or slugged paths. Columns, per block, over the distinct ``<a href>`` elements
whose text is in it:

- ``href_log_links``: log(1 + their number);
- ``href_internal``: the share pointing to the page's own host (relative links too);
- ``href_fragment``: the share pointing into the page itself (``#...``);
- ``href_long_text``: the share whose anchor text has five words or more;
- ``href_story_path``: the share whose path looks like a story's (a year ``/20NN/`` or
  ``/19NN/`` segment, or a last segment of four hyphenated words or more);
- ``href_page_internal``: the share of the page's links that point to its own host
  (the same on every block).

Scored with ``benchmarks.boosted_static``'s harness (``--baseline``: without the
columns). An experiment, not in the package; output in
``benchmarks/out/boosted_link_targets/``; needs the ``[train]`` extra.
"""

from __future__ import annotations

import re
import sys
from typing import Any
from urllib.parse import SplitResult, urlsplit

import numpy as np

from benchmarks.boosted_static import column_experiment
from benchmarks.grouped_cv import ROOT

OUT = ROOT / "benchmarks" / "out" / "boosted_link_targets"

COLUMNS = [
    "href_log_links",
    "href_internal",
    "href_fragment",
    "href_long_text",
    "href_story_path",
    "href_page_internal",
]

_YEAR = re.compile(r"/(?:19|20)\d\d/")
_SLUG = re.compile(r"[^/?#]*(?:-[^/?#-]+){3,}/?(?:[?#].*)?$")
#: how far above a text-holding element its link may be (``<a><span>text</span></a>``)
MAX_UP = 3


def host_of(url: str | None) -> str:
    """The URL's host without a leading ``www.`` ("" for none, or for a broken URL)."""
    try:
        return bare_host(urlsplit(url or ""))
    except ValueError:
        return ""


def bare_host(parts: SplitResult) -> str:
    """The host of a split URL without a leading ``www.`` ("" for none)."""
    return (parts.hostname or "").removeprefix("www.")


def link_kind(href: str, page_host: str, text_words: int) -> tuple[bool, bool, bool, bool]:
    """(internal, fragment, long text, story path) of one link."""
    href = href.strip()
    if href.startswith("#"):
        return True, True, text_words >= 5, False
    try:
        parts = urlsplit(href)  # (split once: its host and its path)
    except ValueError:
        return False, False, text_words >= 5, False
    host = bare_host(parts)
    internal = not host or (bool(page_host) and host == page_host)
    path = parts.path
    story = bool(_YEAR.search(path + "/")) or bool(_SLUG.search(path))
    return internal, False, text_words >= 5, story


def anchor_of(el: Any) -> Any:
    node = el
    for _ in range(MAX_UP + 1):
        if node is None or not isinstance(node.tag, str):
            return None
        if node.tag == "a":
            return node if node.get("href") is not None else None
        node = node.getparent()
    return None


def link_target_columns(doc: Any) -> np.ndarray:
    """The ``n x len(COLUMNS)`` columns of a Document's blocks (module docstring)."""
    blocks = doc.blocks
    out = np.zeros((len(blocks), len(COLUMNS)), dtype=np.float64)
    page_host = host_of(doc.url)
    kinds: dict[Any, tuple[bool, bool, bool, bool]] = {}
    for i, block in enumerate(blocks):
        if not block.num_words_in_anchor_text:
            continue
        anchors = []
        for el in block.text_of:
            a = anchor_of(el)
            if a is not None and a not in anchors:
                anchors.append(a)
        if not anchors:
            continue
        values = []
        for a in anchors:
            kind = kinds.get(a)
            if kind is None:
                words = len("".join(a.itertext()).split())
                kind = kinds[a] = link_kind(a.get("href") or "", page_host, words)
            values.append(kind)
        array = np.array(values, dtype=np.float64)
        out[i, 0] = np.log1p(len(anchors))
        out[i, 1:5] = array.mean(axis=0)
    if kinds:
        out[:, 5] = np.mean([k[0] for k in kinds.values()])
    return out


def main(argv: list[str] | None = None) -> int:
    return column_experiment(
        argv,
        __doc__.split("\n\n")[0],
        OUT,
        COLUMNS,
        link_target_columns,
        "boosted + the link-target columns",
    )


if __name__ == "__main__":
    sys.exit(main())
