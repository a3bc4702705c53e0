#!/usr/bin/env python
"""Do columns from the page's own layout markup (widths, floats, alignment) help the
default labeler?

    python -m benchmarks.boosted_layout [--unseen] [--seed N]
    python -m benchmarks.boosted_layout --time

The news pages of 2005-2012 that the unseen sets hold were laid out in the markup: a
story's column is a wide ``<td>``, a sidebar a narrow one (``<td width="160">``), a box
beside the story ``style="float: right"`` or ``align="right"``. Modern pages say it in
their style sheets, which the labeler never sees, so the training sets hold such markup
on fewer pages; but where a page has it, it is the page's own word on its columns.
Columns, per block, from its first element's ancestors (the element itself included):

- ``layout_px``: log(1 + the nearest width in pixels), a ``width`` attribute or an
  inline ``width:`` of ``px`` (0: none);
- ``layout_pct``: the nearest width given in percent, as a share (0: none);
- ``layout_floated``: an ancestor floats (inline ``float: left`` or ``right``);
- ``layout_aligned``: an ancestor ``<td>``, ``<div>`` or ``<table>`` is ``align="left"``
  or ``"right"``;
- ``layout_narrow_share``: the share of the page's blocks under a width of at most 300
  pixels (the same on every block).

Scored with ``benchmarks.boosted_static``'s harness, as ``benchmarks.boosted_site_name``
(``--baseline``: the harness without the columns, the figure to compare with). An
experiment, not in the package; output in ``benchmarks/out/boosted_layout/``; needs the
``[train]`` extra.
"""

from __future__ import annotations

import math
import re
import sys
from typing import Any

import numpy as np

from benchmarks.boosted_static import column_experiment
from benchmarks.grouped_cv import ROOT

OUT = ROOT / "benchmarks" / "out" / "boosted_layout"

COLUMNS = [
    "layout_px",
    "layout_pct",
    "layout_floated",
    "layout_aligned",
    "layout_narrow_share",
]

#: a width of at most this many pixels is a sidebar's, not a story's column
NARROW_PX = 300
_STYLE_WIDTH = re.compile(r"(?:^|;)\s*width\s*:\s*(\d+(?:\.\d+)?)\s*(px|%)", re.IGNORECASE)
_STYLE_FLOAT = re.compile(r"(?:^|;)\s*float\s*:\s*(left|right)", re.IGNORECASE)
_ATTR_WIDTH = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*(%|px)?\s*$")
_ALIGNED_TAGS = {"td", "div", "table"}
#: how many ancestors are looked at (a bound for deep pages)
MAX_ANCESTORS = 40


def own_layout(el: Any) -> tuple[float, float, bool, bool]:
    """An element's own width in pixels (0: none), in percent (0: none), whether it
    floats, whether it is aligned left or right."""
    px = pct = 0.0
    style = el.get("style") or ""
    width = _STYLE_WIDTH.search(style)
    if width:
        px, pct = (float(width[1]), 0.0) if width[2].lower() == "px" else (0.0, float(width[1]))
    else:
        attribute = _ATTR_WIDTH.match(el.get("width") or "")
        if attribute:
            value = float(attribute[1])
            px, pct = (0.0, value) if attribute[2] == "%" else (value, 0.0)
    floated = bool(_STYLE_FLOAT.search(style))
    aligned = el.tag in _ALIGNED_TAGS and (el.get("align") or "").strip().lower() in (
        "left",
        "right",
    )
    return px, pct, floated, aligned


def block_layout(el: Any, cache: dict[Any, tuple[float, float, bool, bool]]) -> np.ndarray:
    """The first four columns for a block whose first element is ``el``."""
    px = pct = 0.0
    floated = aligned = False
    node = el
    for _ in range(MAX_ANCESTORS):
        if node is None or not isinstance(node.tag, str):
            break
        values = cache.get(node)
        if values is None:
            values = cache[node] = own_layout(node)
        if not px and not pct:
            px, pct = values[0], values[1]
        floated = floated or values[2]
        aligned = aligned or values[3]
        node = node.getparent()
    return np.array([math.log1p(px), min(pct, 100.0) / 100.0, floated, aligned])


def layout_columns(doc: Any) -> np.ndarray:
    """The ``n x len(COLUMNS)`` columns of a Document's blocks (the module docstring)."""
    blocks = doc.blocks
    out = np.zeros((len(blocks), len(COLUMNS)), dtype=np.float64)
    if not blocks:
        return out
    cache: dict[Any, tuple[float, float, bool, bool]] = {}
    for i, block in enumerate(blocks):
        el = block.element
        if el is not None:
            out[i, :4] = block_layout(el, cache)
    narrow = (out[:, 0] > 0) & (out[:, 0] <= math.log1p(NARROW_PX))
    out[:, 4] = narrow.mean()
    return out


def main(argv: list[str] | None = None) -> int:
    return column_experiment(
        argv,
        __doc__.split("\n\n")[0],
        OUT,
        COLUMNS,
        layout_columns,
        "boosted + the layout columns",
    )


if __name__ == "__main__":
    sys.exit(main())
