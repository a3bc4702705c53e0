"""The item the spiders yield: scrapy-boilerplate fills ``main_text`` and ``title``."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass
class Article:
    url: str
    title: str | None = None
    main_text: str | None = None
