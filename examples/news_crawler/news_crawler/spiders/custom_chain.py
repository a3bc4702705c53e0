"""The same crawl with a chain of its own: boilerpipe's article extractor, a split of
the kept text into paragraphs, then a filter of this project (by import path, with a
parameter) that drops short promo lines ("Advertisement", "Share this", ...).

Per-spider configuration goes in ``custom_settings``; the rest of the project keeps the
project-wide ``BOILERPLATE_EXTRACTOR``.
"""

from __future__ import annotations

from news_crawler.spiders.news import NewsSpider


class CustomChainSpider(NewsSpider):
    name = "custom_chain"
    custom_settings = {
        "BOILERPLATE_EXTRACTOR": [
            "article",
            "split_paragraph_blocks",
            {"news_crawler.filters.DropShortPromoLines": {"max_words": 15}},
        ],
    }
