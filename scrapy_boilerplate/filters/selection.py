"""Filters that select the main content among classified blocks (boilerpipe heuristics).

Largest block, end-of-text cut-offs, title expansion, same-tag-level and list expansion,
removing boilerplate blocks, and the word-count and clause thresholds.
"""

from __future__ import annotations

import re

from .._unicode_tables import LETTER_ASTRAL, LETTER_BMP
from ..document import Document, Label, TextBlock
from .base import Filter

__all__ = [
    "BoilerplateBlockFilter",
    "ExpandTitleToContentFilter",
    "IgnoreBlocksAfterContentFilter",
    "IgnoreBlocksAfterContentFromEndFilter",
    "KeepLargestBlockFilter",
    "KeepLargestFulltextBlockFilter",
    "LargeBlockSameTagLevelToContentFilter",
    "ListAtEndFilter",
    "MinClauseWordsFilter",
    "MinFulltextWordsFilter",
    "MinWordsFilter",
    "SurroundingToContentFilter",
    "TrailingHeadlineToBoilerplateFilter",
    "full_text_words",
]

#: a block of at least this text density is "full text" (boilerpipe HeuristicFilterBase)
FULL_TEXT_DENSITY = 9


def full_text_words(block: TextBlock, min_text_density: float = FULL_TEXT_DENSITY) -> int:
    """The block's words if it is dense enough to be running text, else 0."""
    return block.num_words if block.text_density >= min_text_density else 0


class BoilerplateBlockFilter(Filter):
    """Removes every block that is not content (``keep_title``: except TITLE blocks)."""

    name = "boilerplate_block"

    def __init__(self, keep_title: bool = False) -> None:
        self.keep_title = keep_title

    def __call__(self, doc: Document) -> bool:
        keep_title = self.keep_title
        kept = [b for b in doc.blocks if b.is_content or (keep_title and Label.TITLE in b.labels)]
        if len(kept) == len(doc.blocks):
            return False
        doc.blocks[:] = kept
        return True


class KeepLargestBlockFilter(Filter):
    """Keeps only the content block with the most words (the first of equals).

    The winner is labelled VERY_LIKELY_CONTENT, every other block becomes boilerplate
    labelled MIGHT_BE_CONTENT. ``expand_to_same_level_text`` then turns back to content the
    blocks at the winner's tag level (with at least ``min_words`` words) on both sides, up
    to the first block at a shallower level.
    """

    name = "keep_largest_block"

    def __init__(self, expand_to_same_level_text: bool = False, min_words: int = 0) -> None:
        self.expand_to_same_level_text = expand_to_same_level_text
        self.min_words = min_words

    def __call__(self, doc: Document) -> bool:
        blocks = doc.blocks
        if len(blocks) < 2:
            return False
        largest = None
        index = -1
        max_words = -1
        for i, block in enumerate(blocks):
            if block.is_content and block.num_words > max_words:
                largest, index, max_words = block, i, block.num_words
        for block in blocks:
            if block is largest:
                block.is_content = True
                block.labels.add(Label.VERY_LIKELY_CONTENT)
            else:
                block.is_content = False
                block.labels.add(Label.MIGHT_BE_CONTENT)
        if self.expand_to_same_level_text and largest is not None:
            level = largest.tag_level
            for side in (reversed(blocks[:index]), blocks[index:]):
                for block in side:
                    if block.tag_level < level:
                        break
                    if block.tag_level == level and block.num_words >= self.min_words:
                        block.is_content = True
        return True


class KeepLargestFulltextBlockFilter(Filter):
    """Keeps only the content block with the most full-text words (boilerpipe 1.0's choice).

    No change when no block is content; the winner gets no label, the others become
    boilerplate labelled MIGHT_BE_CONTENT.
    """

    name = "keep_largest_fulltext_block"

    def __call__(self, doc: Document) -> bool:
        blocks = doc.blocks
        if len(blocks) < 2:
            return False
        largest = None
        max_words = -1
        for block in blocks:
            if block.is_content:
                words = full_text_words(block)
                if words > max_words:
                    largest, max_words = block, words
        if largest is None:
            return False
        for block in blocks:
            if block is not largest:
                block.is_content = False
                block.labels.add(Label.MIGHT_BE_CONTENT)
        return True


class IgnoreBlocksAfterContentFilter(Filter):
    """Marks boilerplate everything from the first end-of-text block onwards, once the
    content before it holds at least ``min_num_words`` full-text words."""

    name = "ignore_blocks_after_content"

    def __init__(self, min_num_words: int = 60) -> None:
        self.min_num_words = min_num_words

    def __call__(self, doc: Document) -> bool:
        words = 0
        end = Label.INDICATES_END_OF_TEXT
        minimum = self.min_num_words
        blocks = doc.blocks
        for i, block in enumerate(blocks):
            if block.is_content and block.text_density >= FULL_TEXT_DENSITY:
                words += block.num_words
            if words >= minimum and end in block.labels:
                for rest in blocks[i:]:
                    rest.is_content = False
                return True
        return False


class IgnoreBlocksAfterContentFromEndFilter(Filter):
    """From the end: end-of-text blocks become STRICTLY_NOT_CONTENT boilerplate, until the
    content blocks passed hold more than 200 words."""

    name = "ignore_blocks_after_content_from_end"

    def __call__(self, doc: Document) -> bool:
        changed = False
        words = 0
        for block in reversed(doc.blocks):
            if Label.INDICATES_END_OF_TEXT in block.labels:
                block.labels.add(Label.STRICTLY_NOT_CONTENT)
                block.remove_label(Label.MIGHT_BE_CONTENT)
                block.is_content = False
                changed = True
            elif block.is_content:
                words += block.num_words
                if words > 200:
                    break
        return changed


class TrailingHeadlineToBoilerplateFilter(Filter):
    """Headings at the very end of the content (after the last text) become boilerplate."""

    name = "trailing_headline_to_boilerplate"

    def __call__(self, doc: Document) -> bool:
        changed = False
        for block in reversed(doc.blocks):
            if block.is_content:
                if Label.HEADING not in block.labels:
                    break
                block.is_content = False
                changed = True
        return changed


class ExpandTitleToContentFilter(Filter):
    """Marks content the MIGHT_BE_CONTENT blocks between the title and the content start."""

    name = "expand_title_to_content"

    def __call__(self, doc: Document) -> bool:
        title = -1
        content_start = -1
        for i, block in enumerate(doc.blocks):
            if Label.TITLE in block.labels:
                title = i
            if block.is_content:
                content_start = i
                break
        if content_start <= title or title == -1:
            return False
        changed = False
        for block in doc.blocks[title:content_start]:
            if Label.MIGHT_BE_CONTENT in block.labels:
                changed |= block.set_content(True)
        return changed


class LargeBlockSameTagLevelToContentFilter(Filter):
    """Blocks of 100+ words at the tag level of the VERY_LIKELY_CONTENT block become content."""

    name = "large_block_same_tag_level_to_content"

    def __call__(self, doc: Document) -> bool:
        level = next(
            (
                b.tag_level
                for b in doc.blocks
                if b.is_content and Label.VERY_LIKELY_CONTENT in b.labels
            ),
            -1,
        )
        if level == -1:
            return False
        changed = False
        for block in doc.blocks:
            if not block.is_content and block.num_words >= 100 and block.tag_level == level:
                block.is_content = True
                changed = True
        return changed


class ListAtEndFilter(Filter):
    """A link-free list nested right after the main block is appended to the content."""

    name = "list_at_end"

    def __call__(self, doc: Document) -> bool:
        changed = False
        level = float("inf")
        for block in doc.blocks:
            if block.is_content and Label.VERY_LIKELY_CONTENT in block.labels:
                level = block.tag_level
            elif (
                block.tag_level > level
                and Label.MIGHT_BE_CONTENT in block.labels
                and Label.LI in block.labels
                and block.link_density == 0
            ):
                block.is_content = True
                changed = True
            else:
                level = float("inf")
        return changed


class SurroundingToContentFilter(Filter):
    """A link-free boilerplate block of more than 6 words between two content blocks
    becomes content.

    As in boilerpipe, the window of three blocks slides two blocks at a time.
    """

    name = "surrounding_to_content"

    def __call__(self, doc: Document) -> bool:
        blocks = doc.blocks
        changed = False
        for i in range(0, len(blocks) - 2, 2):
            a, b, c = blocks[i], blocks[i + 1], blocks[i + 2]
            if (
                not b.is_content
                and a.is_content
                and c.is_content
                and b.link_density == 0
                and b.num_words > 6
            ):
                b.is_content = True
                changed = True
        return changed


class MinWordsFilter(Filter):
    """Content blocks with fewer than ``min_words`` words become boilerplate."""

    name = "min_words"

    def __init__(self, min_words: int = 15) -> None:
        self.min_words = min_words

    def __call__(self, doc: Document) -> bool:
        changed = False
        for block in doc.blocks:
            if block.is_content and block.num_words < self.min_words:
                block.is_content = False
                changed = True
        return changed


class MinFulltextWordsFilter(Filter):
    """Content blocks with fewer than ``min_words`` full-text words become boilerplate."""

    name = "min_fulltext_words"

    def __init__(self, min_words: int = 30) -> None:
        self.min_words = min_words

    def __call__(self, doc: Document) -> bool:
        changed = False
        for block in doc.blocks:
            if block.is_content and full_text_words(block) < self.min_words:
                block.is_content = False
                changed = True
        return changed


# A clause ends at a letter or ASCII digit followed by punctuation, then space or the end.
_CLAUSE_END = re.compile(f"(?:[{LETTER_BMP}0-9]|[{LETTER_ASTRAL}])[,.:;!?]+(?:[ \\n\\r]+|$)")
_CLAUSE_SPACE = re.compile(r"[ \n\r]+")


class MinClauseWordsFilter(Filter):
    """Content blocks without a clause of at least ``min_words`` words become boilerplate.

    ``accept_clauses_without_delimiter`` also counts the text after the last delimiter.
    """

    name = "min_clause_words"

    def __init__(self, min_words: int = 5, accept_clauses_without_delimiter: bool = False) -> None:
        self.min_words = min_words
        self.accept_clauses_without_delimiter = accept_clauses_without_delimiter

    def _is_clause(self, text: str) -> bool:
        return len(_CLAUSE_SPACE.findall(text)) + 1 >= self.min_words

    def __call__(self, doc: Document) -> bool:
        changed = False
        for block in doc.blocks:
            if not block.is_content:
                continue
            text = block.text
            start = 0
            has_clause = False
            for match in _CLAUSE_END.finditer(text):
                has_clause = self._is_clause(text[start : match.start() + 1])
                start = match.end()
                if has_clause:
                    break
            if self.accept_clauses_without_delimiter:
                has_clause |= self._is_clause(text[start:])
            if not has_clause:
                block.is_content = False
                changed = True
        return changed
