#!/usr/bin/env python
"""The default, then the page's own declared article text (JSON-LD ``articleBody``) as a
judge of its blocks: an experiment, not shipped.

    python -m benchmarks.grouped_cv --model boosted        # the fold models, first
    python -m benchmarks.article_body [--folds-dir DIR] [--unseen] [--skip-cv]

Many modern pages declare their story's text in JSON-LD (``"articleBody": "..."``: 59 of
trafilatura-eval's 990 pages, 32 of wcxb-dev's, 7 of mozilla-readability's; none of the
six unseen sets' but one). After the default chain, on a page whose longest declared
``articleBody`` has at least ``MIN`` word pairs, :class:`ArticleBodyJudge` makes a
content block of 4 or more word pairs boilerplate where fewer than ``DROP`` of its word
pairs are in the declared text, and a boilerplate block of ``ADD_WORDS`` or more pairs
content where at least ``ADD`` of them are (not a readers' comment). Variants
``MIN:DROP:ADD:ADD_WORDS`` (``DROP`` -1 never drops, ``ADD`` 2 never adds); paired with
the shipped chain on the same trees, scored as ``benchmarks.boosted_variants`` scores.
Linear in the page: one set of the declared text's word pairs, each block's pairs looked
up once. Not a test: nothing is asserted.
"""

from __future__ import annotations

import json
import re
import sys
from typing import Any

from benchmarks.boosted_variants import RunnerFor, labeler_runner, variants_main
from scrapy_boilerplate.document import Document, Label
from scrapy_boilerplate.filters.base import Filter
from scrapy_boilerplate.filters.comments import json_ld_scripts
from scrapy_boilerplate.neural.boosted import BoostedLabeler

_WORDS = re.compile(r"\w+")
#: JSON-LD scripts read per page
MAX_SCRIPTS = 10


def word_pairs(text: str) -> list[tuple[str, str]]:
    """The consecutive word pairs of a text, lower-cased."""
    words = _WORDS.findall(text.lower())
    return list(zip(words, words[1:], strict=False))


def declared_bodies(value: Any, out: list[str]) -> list[str]:
    """Every ``articleBody`` string of a JSON-LD value (``@graph`` members, lists and
    nested objects included), appended to ``out``."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            body = item.get("articleBody")
            if isinstance(body, str):
                out.append(body)
            stack.extend(v for v in item.values() if isinstance(v, (dict, list)))
        elif isinstance(item, list):
            stack.extend(item)
    return out


def declared_body(doc: Document) -> str | None:
    """The longest ``articleBody`` the page's JSON-LD declares, or None."""
    if doc.root is None:
        return None
    found: list[str] = []
    for n, script in enumerate(json_ld_scripts(doc.root)):
        if n >= MAX_SCRIPTS:
            break
        if script.text and "articleBody" in script.text:
            try:
                declared_bodies(json.loads(script.text), found)
            except (ValueError, RecursionError):
                continue
    return max(found, key=len) if found else None


class ArticleBodyJudge(Filter):
    """Blocks judged by the declared article text (see the module docstring)."""

    name = "article_body"

    def __init__(self, min_pairs: int, drop: float, add: float, add_pairs: int) -> None:
        self.min_pairs, self.drop, self.add, self.add_pairs = min_pairs, drop, add, add_pairs

    def __call__(self, doc: Document) -> bool:
        body = declared_body(doc)
        pairs = set(word_pairs(body)) if body else set()
        if len(pairs) < self.min_pairs:
            return False
        changed = False
        for block in doc.blocks:
            own = word_pairs(block.text)
            if len(own) < 4:
                continue
            share = sum(pair in pairs for pair in own) / len(own)
            if block.is_content and share < self.drop:
                changed |= block.set_content(False)
            elif (
                not block.is_content
                and share >= self.add
                and len(own) >= self.add_pairs
                and Label.USER_COMMENTS not in block.labels
            ):
                changed |= block.set_content(True)
        return changed


def variant_runner(variant: str | None) -> RunnerFor:
    """The default chain, then (unless ``variant`` is None) the judge ``MIN:DROP:ADD:ADD_WORDS``."""
    if variant is None:
        return labeler_runner(BoostedLabeler, "shipped")
    min_pairs, drop, add, add_pairs = variant.split(":")
    judge = ArticleBodyJudge(int(min_pairs), float(drop), float(add), int(add_pairs))

    def append(chain: Any) -> None:
        chain.filters = (*chain.filters, judge)

    return labeler_runner(BoostedLabeler, variant, append)


def main(argv: list[str] | None = None) -> int:
    return variants_main(
        argv,
        __doc__.split("\n\n")[0],
        variant_runner,
        "300:0.3:0.9:8,300:0.3:2:8,300:-1:0.9:8,100:0.3:0.9:8",
    )


if __name__ == "__main__":
    sys.exit(main())
