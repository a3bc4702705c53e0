#!/usr/bin/env python
"""Do columns that say whether a block names the site itself help the default labeler?

    python -m benchmarks.boosted_site_name [--unseen] [--seed N] [--baseline]
    python -m benchmarks.boosted_site_name --time

A story seldom names the site that publishes it; the text around it often does: the
"About Danwei" box and "Danwei is supported by ..." widgets beside a 2012 blog post
(dragnet-test's danwei.com pages keep such text widgets at 0.5-0.8), the copyright
line, "Subscribe to the Gadgetwise newsletter", "Follow X on Twitter". No column of the
labeler reads a block's words, so none can tell. The site's names, per page: the
registrable label of the URL's host (``danwei`` of ``www.danwei.com``, ``nytimes`` of
``gadgetwise.blogs.nytimes.com``; the label before a two-letter country code's ``co``,
``com``, ...), if of 4 characters or more, as a word; and the page's ``og:site_name``
(or ``application-name``) as a phrase. Columns, per block:

- ``site_named``: the block's text holds one of the site's names;
- ``site_names``: log(1 + how many times);
- ``site_named_share``: the share of the page's blocks that name the site (the same on
  every block: a site whose name is a common word names itself everywhere).

Scored with ``benchmarks.boosted_static``'s harness (folds by site on the four training
sets; ``--unseen``: the six sets no model trains on; ``--seed``: LightGBM's;
``--baseline``: the same harness without the columns, for figures measured on one
machine). An experiment, not in the package; output in
``benchmarks/out/boosted_site_name/``; needs the ``[train]`` extra.
"""

from __future__ import annotations

import math
import re
import sys
from typing import Any
from urllib.parse import urlsplit

import numpy as np

from benchmarks.boosted_static import column_experiment
from benchmarks.grouped_cv import ROOT

OUT = ROOT / "benchmarks" / "out" / "boosted_site_name"

COLUMNS = ["site_named", "site_names", "site_named_share"]

#: second-level labels under a country code that are not the site's name (``co.uk``)
_COUNTRY_SECOND_LEVELS = {"co", "com", "org", "net", "gov", "ac", "edu", "ne", "or", "go"}
_SITE_NAME_KEYS = ("og:site_name", "application-name")
_WORD = re.compile(r"\w+")
_SPACES = re.compile(r"\s+")


def host_label(url: str | None) -> str | None:
    """The registrable label of the URL's host, lower-cased (None for none, or for one
    of fewer than 4 characters)."""
    if not url:
        return None
    try:
        host = urlsplit(url).hostname or ""
    except ValueError:
        return None
    labels = [label for label in host.lower().split(".") if label and label != "www"]
    if len(labels) < 2:
        return None
    if len(labels) >= 3 and len(labels[-1]) == 2 and labels[-2] in _COUNTRY_SECOND_LEVELS:
        label = labels[-3]
    else:
        label = labels[-2]
    return label if len(label) >= 4 and not label.isdigit() else None


def declared_name(root: Any) -> str | None:
    """The page's ``og:site_name`` (else ``application-name``), lower-cased, spaces
    folded; None for none or one of fewer than 4 characters."""
    if root is None:
        return None
    for meta in root.iter("meta"):
        key = (meta.get("property") or meta.get("name") or "").strip().lower()
        if key in _SITE_NAME_KEYS:
            name = _SPACES.sub(" ", (meta.get("content") or "").strip().lower())
            if len(name) >= 4:
                return name
    return None


def site_name_columns(doc: Any) -> np.ndarray:
    """The ``n x len(COLUMNS)`` columns of a Document's blocks (the module docstring)."""
    blocks = doc.blocks
    out = np.zeros((len(blocks), len(COLUMNS)), dtype=np.float64)
    if not blocks:
        return out
    label = host_label(doc.url)
    phrase = declared_name(doc.root)
    if label is None and phrase is None:
        return out
    for i, block in enumerate(blocks):
        text = _SPACES.sub(" ", block.text.lower())
        hits = 0
        if label is not None and label in text:  # (a substring test first: cheap)
            hits += sum(word == label for word in _WORD.findall(text))
        if phrase is not None:
            hits += text.count(phrase)
        if hits:
            out[i, 0] = 1.0
            out[i, 1] = math.log1p(hits)
    out[:, 2] = out[:, 0].mean()
    return out


def main(argv: list[str] | None = None) -> int:
    return column_experiment(
        argv,
        __doc__.split("\n\n")[0],
        OUT,
        COLUMNS,
        site_name_columns,
        "boosted + the site-name columns",
    )


if __name__ == "__main__":
    sys.exit(main())
