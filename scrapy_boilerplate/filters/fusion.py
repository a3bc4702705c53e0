"""Filters that merge neighbouring blocks, or split merged ones again (boilerpipe).

A merge joins texts with a newline and pools the statistics (``TextBlock.merge_next``).
"""

from __future__ import annotations

import re

from ..document import Document, Label, TextBlock
from .base import Filter

__all__ = [
    "BlockProximityFusion",
    "ContentFusion",
    "LabelFusion",
    "SimpleBlockFusionProcessor",
    "SplitParagraphBlocksFilter",
]


class SimpleBlockFusionProcessor(Filter):
    """Merges runs of neighbours with exactly equal text density (float equality)."""

    name = "simple_block_fusion"

    def __call__(self, doc: Document) -> bool:
        blocks = doc.blocks
        if len(blocks) < 2:
            return False
        kept = [blocks[0]]
        for block in blocks[1:]:
            if kept[-1].text_density == block.text_density:
                kept[-1].merge_next(block)
            else:
                kept.append(block)
        if len(kept) == len(blocks):
            return False
        doc.blocks[:] = kept
        return True


class BlockProximityFusion(Filter):
    """Merges a content block into the previous block when at most ``max_distance``
    original blocks lie between them.

    ``content_only`` merges only when the previous block is content too (and starts at the
    first content block); ``same_tag_level_only`` only when both have the same tag level.
    Without ``content_only``, a content block merges even into a boilerplate predecessor,
    which then becomes content: in the article chain every content run absorbs one
    preceding block (boilerpipe's behaviour, kept).
    """

    name = "block_proximity_fusion"

    def __init__(
        self, max_distance: int = 1, content_only: bool = False, same_tag_level_only: bool = False
    ) -> None:
        self.max_distance = max_distance
        self.content_only = content_only
        self.same_tag_level_only = same_tag_level_only

    def __call__(self, doc: Document) -> bool:
        blocks = doc.blocks
        if len(blocks) < 2:
            return False
        if self.content_only:
            start = next((i for i, b in enumerate(blocks) if b.is_content), None)
            if start is None:
                return False
        else:
            start = 0
        kept = blocks[: start + 1]
        prev = blocks[start]
        changed = False
        for block in blocks[start + 1 :]:
            if not block.is_content:
                prev = block
                kept.append(block)
                continue
            if (
                block.offset_start - prev.offset_end - 1 <= self.max_distance
                and (not self.content_only or prev.is_content)
                and (not self.same_tag_level_only or prev.tag_level == block.tag_level)
            ):
                prev.merge_next(block)
                changed = True
            else:
                prev = block
                kept.append(block)
        if changed:
            doc.blocks[:] = kept
        return changed


class LabelFusion(Filter):
    """Merges neighbours that carry labels and the same markup labels (prefix ``<``).

    As in boilerpipe, blocks without any label never merge.
    """

    name = "label_fusion"

    def __init__(self, label_prefix: str = "") -> None:
        self.label_prefix = label_prefix

    def __call__(self, doc: Document) -> bool:
        blocks = doc.blocks
        if len(blocks) < 2:
            return False
        kept = [blocks[0]]
        for block in blocks[1:]:
            prev = kept[-1]
            if prev.labels and block.labels and _markup(prev) == _markup(block):
                prev.merge_next(block)
            else:
                kept.append(block)
        if len(kept) == len(blocks):
            return False
        doc.blocks[:] = kept
        return True


def _markup(block: TextBlock) -> set[str]:
    return {label for label in block.labels if label.startswith(Label.MARKUP_PREFIX)}


class ContentFusion(Filter):
    """Repeatedly merges link-poor blocks (link density < 0.56, not STRICTLY_NOT_CONTENT)
    into a preceding content block.

    Reproduces boilerpipe: the "previous block" is not reset between passes, so a second
    pass may append the second block to the last one. In no named chain.
    """

    name = "content_fusion"

    def __call__(self, doc: Document) -> bool:
        blocks = doc.blocks
        if len(blocks) < 2:
            return False
        prev = blocks[0]
        changed = True
        while changed:
            changed = False
            i = 1
            while i < len(blocks):
                block = blocks[i]
                if (
                    prev.is_content
                    and block.link_density < 0.56
                    and Label.STRICTLY_NOT_CONTENT not in block.labels
                ):
                    prev.merge_next(block)
                    del blocks[i]
                    changed = True
                else:
                    prev = block
                    i += 1
        return True


_PARAGRAPH_BREAKS = re.compile(r"[\n\r]+")


class SplitParagraphBlocksFilter(Filter):
    """Splits every block at its line breaks (where merged blocks were joined).

    The pieces are new blocks made from text alone (no word statistics, tag level 0), with
    the content flag and labels of the block they came from; later filters must not rely
    on their word counts (boilerpipe's behaviour).
    """

    name = "split_paragraph_blocks"

    def __call__(self, doc: Document) -> bool:
        out: list[TextBlock] = []
        changed = False
        for block in doc.blocks:
            parts = _PARAGRAPH_BREAKS.split(block.text)
            while parts and parts[-1] == "":
                parts.pop()  # Java's split drops trailing empty strings
            if len(parts) < 2:
                out.append(block)
                continue
            changed = True
            for part in parts:
                piece = TextBlock(
                    part,
                    labels=block.labels,
                    elements=block.elements,
                    text_of=block.text_of,
                    tail_of=block.tail_of,
                )
                piece.is_content = block.is_content
                out.append(piece)
        if changed:
            doc.blocks[:] = out
        return changed
