#!/usr/bin/env python
"""The default with and without the comment filter's nested-section rule.

    python -m benchmarks.grouped_cv --model boosted        # the fold models, first
    python -m benchmarks.nested_comments [--folds-dir DIR] [--unseen] [--skip-cv]

``CommentSectionFilter(drop_nested=True)`` (shipped 2026-12-03) drops a comment
section that lies inside another comment section whatever its share of the page's
content words: one long comment of a WordPress thread (``<div id="div-comment-6310">``
in ``<ol class="commentlist"><li class="comment">``) is no article wrapper. Without it,
the share guard keeps such a comment when it holds more than half of what the labeler
kept. Every comment filter of the default chain (the ones its re-readings run too) is
switched together; paired, the same trees read the same pages, scored as
``benchmarks.boosted_variants`` scores. Not a test: nothing is asserted.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from typing import Any

from benchmarks.boosted_variants import RunnerFor, compare, decoding_parser, labeler_runner
from scrapy_boilerplate.filters.base import Filter
from scrapy_boilerplate.filters.comments import CommentSectionFilter
from scrapy_boilerplate.neural.boosted import BoostedLabeler


def comment_filters(node: Any, seen: set[int] | None = None) -> Iterator[CommentSectionFilter]:
    """Every :class:`CommentSectionFilter` reachable from a filter: a chain's filters and
    the chains a filter keeps to read the page again, each visited once."""
    seen = set() if seen is None else seen
    if id(node) in seen:
        return
    seen.add(id(node))
    if isinstance(node, CommentSectionFilter):
        yield node
    if isinstance(node, (list, tuple)):
        for item in node:
            yield from comment_filters(item, seen)
    elif isinstance(node, Filter):
        for value in vars(node).values():
            yield from comment_filters(value, seen)


def default_runner(drop_nested: bool, name: str) -> RunnerFor:
    """The default chain (``benchmarks.boosted_variants.labeler_runner``) with every
    comment filter's ``drop_nested`` set."""

    def switch(chain: Filter) -> None:
        switched = list(comment_filters(chain))
        assert switched, "the default chain has no comment filter"
        for f in switched:
            f.drop_nested = drop_nested

    return labeler_runner(BoostedLabeler, name, switch)


def main(argv: list[str] | None = None) -> int:
    args = decoding_parser(__doc__.split("\n\n")[0]).parse_args(argv)
    compare(
        [default_runner(True, "shipped"), default_runner(False, "without")],
        ["shipped", "without nested"],
        folds_dir=args.folds_dir,
        cv=not args.skip_cv,
        unseen=args.unseen,
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
