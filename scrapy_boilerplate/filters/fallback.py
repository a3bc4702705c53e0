"""A second opinion for pages on which a chain found no content at all.

An empty result is what users of extraction libraries complain about most (news-please#133,
newspaper4k's "sites not working"); trafilatura answers it with fallback extractors. Here
the fallback is any chain spec, run on the page only when the filters before it left no
block marked content.
"""

from __future__ import annotations

from typing import Any

from ..document import Document
from ..spec import build_chain
from .base import Filter

__all__ = ["FallbackFilter"]


class FallbackFilter(Filter):
    """If no block is content, run the chain of ``extractor`` (a name or any chain spec)
    on the document.

    Nothing is content there, which is where boilerpipe's classifiers start on a fresh
    page too, so a fallback such as ``article`` decides the page as it would alone (the
    labels earlier filters added stay).
    """

    name = "fallback"

    def __init__(self, extractor: Any = "article") -> None:
        self.extractor = extractor
        self._chain = build_chain(extractor)

    def __call__(self, doc: Document) -> bool:
        if not doc.blocks or any(block.is_content for block in doc.blocks):
            return False
        return self._chain(doc)
