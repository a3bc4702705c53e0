"""A log formatter that keeps "Scraped from" lines short when items carry main text.

Scrapy logs every scraped item whole at DEBUG level (its default log level), so a crawl
that stores articles writes each article's text into the log. With

    LOG_FORMATTER = "scrapy_boilerplate.logformatter.BoilerplateLogFormatter"

string values longer than :attr:`BoilerplateLogFormatter.max_chars` characters are
shortened in those lines, with their length; the items themselves are untouched. (Or set ``LOG_LEVEL = "INFO"``, which drops the lines.)
"""

from __future__ import annotations

from typing import Any

from itemadapter import ItemAdapter
from scrapy.logformatter import LogFormatter

__all__ = ["BoilerplateLogFormatter"]


class BoilerplateLogFormatter(LogFormatter):
    """Scrapy's log formatter, with long string fields of scraped items shortened."""

    #: characters of a string field kept in the log line
    max_chars = 120

    def scraped(self, item: Any, response: Any, spider: Any) -> dict[str, Any]:
        entry = super().scraped(item, response, spider)
        if ItemAdapter.is_item(item):
            entry["args"] = {**entry["args"], "item": _shortened(item, self.max_chars)}
        return entry


def _shortened(item: Any, max_chars: int) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in ItemAdapter(item).items():
        if isinstance(value, str) and len(value) > max_chars:
            value = f"{value[:max_chars]}... ({len(value):,} characters)"
        out[key] = value
    return out
