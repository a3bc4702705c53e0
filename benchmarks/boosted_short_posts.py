#!/usr/bin/env python
"""Does training on shortened copies of the articles help the default labeler on short posts?

    python -m benchmarks.boosted_short_posts [--unseen]

Where ``boosted`` finds nothing, or keeps the comments or a sidebar instead, the story is
often a short post: a headline and one to three paragraphs under a photo or a video, with
the blog's comments and sidebars around it (dragnet-test's blogs of 2012: 19 pages with no
recall, against 9 for trafilatura). The training sets hold few such pages: nearly every
article there is long, so the trees may have learnt that a page's text is long. This
experiment adds a shortened copy of every article with at least four paragraphs found in
its reference: the page's ``<p>`` elements whose text (eight words or more) the
reference holds are found in order, the first one to three of them (by a hash of the
page id) stay; after them, those paragraphs and the story's list items, subheadings,
quotes, ... (text the reference holds) are taken out of the page, and their text out of
the reference; the rest of the page (headline, comments, sidebars) is as it was. Measured as
every ``boosted`` choice was (``benchmarks.grouped_cv``'s folds, a copy in its page's fold;
only the original pages are scored), and with ``--unseen`` a model trained on all of them
scored on the six unseen sets. An experiment: the package trains on the pages as they are.
Writes ``benchmarks/out/boosted_short_posts/``. Needs the ``[train]`` extra.
"""

from __future__ import annotations

import hashlib
import sys
from typing import Any

import lxml.etree
import lxml.html

from benchmarks.grouped_cv import ROOT
from benchmarks.training_copies import copy_experiment

OUT = ROOT / "benchmarks" / "out" / "boosted_short_posts"
#: the suffix of a copy's page id
SHORT = "#short"
#: a paragraph counts with at least this many words
PARAGRAPH_WORDS = 8
#: an article is shortened when its reference holds at least this many of its paragraphs
MIN_PARAGRAPHS = 4


def _normal(text: str) -> str:
    return " ".join(text.split())


def kept_paragraphs(page_id: str) -> int:
    """How many paragraphs a page's short copy keeps: 1 to 3, by a hash of its id."""
    return 1 + hashlib.sha256(page_id.encode()).digest()[0] % 3


#: elements of the story besides paragraphs, taken out after the kept paragraphs too
#: (when the reference holds their text of at least :data:`OTHER_WORDS` words)
OTHER_TAGS = ("li", "h2", "h3", "h4", "h5", "h6", "blockquote", "pre", "figcaption", "dd", "td")
OTHER_WORDS = 3


def shortened(html: str, main_text: str, keep: int) -> tuple[str, str] | None:
    """The page with only its first ``keep`` reference paragraphs of the story, and its
    reference without the rest; None when the page has fewer than
    :data:`MIN_PARAGRAPHS` such paragraphs (or does not parse). After the kept
    paragraphs, every paragraph, list item, subheading, quote, ... whose text the
    reference holds is taken out."""
    try:
        root = lxml.html.document_fromstring(html)
    except (lxml.etree.ParserError, ValueError):
        return None
    reference = _normal(main_text)
    story = []
    paragraphs = 0
    for el in root.iter("p", *OTHER_TAGS):
        text = _normal(el.text_content())
        words = len(text.split())
        if words >= (PARAGRAPH_WORDS if el.tag == "p" else OTHER_WORDS) and text in reference:
            story.append((el, text, paragraphs))
            paragraphs += el.tag == "p" and words >= PARAGRAPH_WORDS
    if paragraphs < max(MIN_PARAGRAPHS, keep + 1):
        return None
    dropped: set[Any] = set()
    for el, text, before in story:
        if before < keep or any(a in dropped for a in el.iterancestors()):
            continue
        if el.tag != "p" and next(el.iter("p"), None) is not None:
            continue  # (a container of paragraphs: its own paragraphs are decided one by one)
        reference = reference.replace(text, " ", 1)
        dropped.add(el)
    for el in dropped:
        el.drop_tree()
    return lxml.html.tostring(root, encoding="unicode"), _normal(reference)


def short_copy(page_id: str, html: str, main_text: str | None) -> tuple[str, str] | None:
    """A page's short copy (:func:`shortened`), for pages labelled by a reference text."""
    return shortened(html, main_text, kept_paragraphs(page_id)) if main_text else None


def main(argv: list[str] | None = None) -> int:
    description = __doc__.split("\n\n")[0]
    return copy_experiment(argv, description, OUT, short_copy, SHORT, "short copies")


if __name__ == "__main__":
    sys.exit(main())
