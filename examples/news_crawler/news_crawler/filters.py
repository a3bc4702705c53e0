"""A filter of your own, used by the ``custom_chain`` spider through its import path.

The chain there runs boilerpipe's article extractor, splits the kept text into its
paragraphs (``split_paragraph_blocks``), then drops the short promo lines below.

A filter is any object with ``__call__(doc) -> bool`` (True if it changed something).
It reads and relabels ``doc.blocks`` (TextBlocks with ``text``, ``num_words``,
``link_density``, ``is_content``...). It must keep no per-page state: one instance
serves every page and every worker thread.
"""

from __future__ import annotations

from scrapy_boilerplate.filters import Filter

#: phrases of short lines that news pages put inside the article body
DEFAULT_PHRASES = (
    "advertisement",
    "image caption",
    "image copyright",
    "read more",
    "related:",
    "share this",
    "sign up",
    "subscribe",
    "follow us",
    "photo:",
    "getty images",
)


class DropShortPromoLines(Filter):
    """Mark as boilerplate the short content blocks that contain a promo phrase."""

    name = "drop_short_promo_lines"

    def __init__(self, phrases: tuple[str, ...] | list[str] = DEFAULT_PHRASES, max_words: int = 12):
        self.phrases = tuple(p.lower() for p in phrases)
        self.max_words = max_words

    def __call__(self, doc) -> bool:
        changed = False
        for block in doc.blocks:
            if not block.is_content:
                continue
            # count words from the text: blocks made by split_paragraph_blocks carry no
            # word statistics (as in boilerpipe)
            if len(block.text.split()) > self.max_words:
                continue
            text = block.text.lower()
            if any(phrase in text for phrase in self.phrases):
                block.is_content = False
                changed = True
        return changed
