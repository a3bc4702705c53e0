"""The page as a browser without JavaScript shows it, for pages on which a chain found no
content at all.

Some sites put the article where only a script shows it (Blogger's templates keep the
post in a ``<script type="text/template">``) and repeat it inside ``<noscript>`` for
readers without JavaScript. A crawler is such a reader, but boilerpipe's segmentation,
which every extractor here starts from, skips ``<noscript>``: the page then has no
article text to find. This filter reads the ``<noscript>`` markup as ordinary markup and
runs a chain again, only where the chain before it left no block content.
"""

from __future__ import annotations

import copy
from typing import Any

from ..document import Document
from ..parse import segment
from ..spec import build_chain
from .base import Filter

__all__ = ["NoscriptContent"]


class NoscriptContent(Filter):
    """If no block is content and the page's ``<noscript>`` elements hold at least
    ``min_words`` words more than the page without them, segment the page again with
    their markup read (in a copy of the tree: the parse may be shared) and run the chain
    of ``extractor`` (a name, a chain spec, or a filter) on the new blocks.

    ``min_words`` (20) keeps out the one-line notices ("Please enable JavaScript to view
    the comments") that most ``<noscript>`` elements hold.
    """

    name = "noscript_content"

    def __init__(self, extractor: Any = "article", min_words: int = 20) -> None:
        if min_words < 0:
            raise ValueError(f"min_words must be at least 0, not {min_words!r}")
        self.extractor = extractor
        self.min_words = min_words
        self._chain = extractor if isinstance(extractor, Filter) else build_chain(extractor)

    def __call__(self, doc: Document) -> bool:
        root = doc.root
        if root is None or any(block.is_content for block in doc.blocks):
            return False
        if next(root.iter("noscript"), None) is None:
            return False
        shown = copy.deepcopy(root)
        for element in shown.iter("noscript"):
            element.tag = "div"
        blocks, _ = segment(shown, cjk=doc.cjk)
        gained = sum(b.num_words for b in blocks) - sum(b.num_words for b in doc.blocks)
        if gained < self.min_words:
            return False
        doc.check_deadline()
        doc.blocks, doc.root = blocks, shown
        self._chain(doc)
        return True
