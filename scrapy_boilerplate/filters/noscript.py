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

from ..document import Document, TextBlock
from .reread import ReadAgain

__all__ = ["NoscriptContent"]


class NoscriptContent(ReadAgain):
    """If no block is content and the page's ``<noscript>`` elements hold at least
    ``min_words`` words more than the page without them, segment the page again with
    their markup read (in a copy of the tree: the parse may be shared) and run the chain
    of ``extractor`` (a name, a chain spec, or a filter) on the new blocks.

    ``min_words`` (20) keeps out the one-line notices ("Please enable JavaScript to view
    the comments") that most ``<noscript>`` elements hold.
    """

    name = "noscript_content"

    def changed_copy(self, root: Any) -> Any | None:
        """A copy of the tree whose ``<noscript>`` elements are ordinary ``<div>``."""
        if next(root.iter("noscript"), None) is None:
            return None
        shown = copy.deepcopy(root)
        for element in shown.iter("noscript"):
            element.tag = "div"
        return shown

    def words(self, blocks: list[TextBlock], doc: Document) -> int:
        """The words the ``<noscript>`` markup adds to the page."""
        return sum(b.num_words for b in blocks) - sum(b.num_words for b in doc.blocks)
