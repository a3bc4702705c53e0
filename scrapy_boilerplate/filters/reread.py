"""Reading a page again, from a changed copy of its tree, where a chain found no content.

The base of :class:`~scrapy_boilerplate.filters.NoscriptContent` (the page with its
``<noscript>`` markup read) and :class:`~scrapy_boilerplate.filters.WithoutCommentThreads`
(the page without its comment threads): each says how its copy differs; the rest (the
copy segmented again, the words it needs, the chain run on the new blocks) is here.
"""

from __future__ import annotations

from typing import Any

from ..document import Document, TextBlock
from ..parse import segment_shown
from ..spec import build_chain
from .base import Filter

__all__ = ["ReadAgain"]


class ReadAgain(Filter):
    """If no block is content and :meth:`changed_copy` gives a tree, segment that tree
    and, if :meth:`words` of the new blocks are at least ``min_words``, run the chain of
    ``extractor`` (a name, a chain spec, or a filter) on them. The page's own tree is
    never changed: a parse may be shared by several chains."""

    def __init__(self, extractor: Any = "article", min_words: int = 20) -> None:
        if min_words < 0:
            raise ValueError(f"min_words must be at least 0, not {min_words!r}")
        self.extractor = extractor
        self.min_words = min_words
        self._chain = extractor if isinstance(extractor, Filter) else build_chain(extractor)

    def changed_copy(self, root: Any) -> Any | None:
        """A changed copy of the page's tree, or None where there is nothing to change."""
        raise NotImplementedError

    def words(self, blocks: list[TextBlock], doc: Document) -> int:
        """The words the new blocks must hold (``min_words`` or more): all of theirs."""
        return sum(block.num_words for block in blocks)

    def __call__(self, doc: Document) -> bool:
        root = doc.root
        if root is None or any(block.is_content for block in doc.blocks):
            return False
        shown = self.changed_copy(root)
        if shown is None:
            return False
        blocks, _ = segment_shown(shown, cjk=doc.cjk)
        if self.words(blocks, doc) < self.min_words:
            return False
        doc.check_deadline()
        doc.blocks, doc.root = blocks, shown
        self._chain(doc)
        return True
