"""Logging once per kind of event per crawl."""

from __future__ import annotations

import logging
from typing import Any

__all__ = ["OnceLogger"]


class OnceLogger:
    """Logs a message once per kind per crawl; later ones of the same kind are only counted."""

    def __init__(self, logger: logging.Logger, crawler: Any) -> None:
        self.logger = logger
        self.crawler = crawler
        self._seen: set[Any] = set()

    def __call__(self, kind: Any, level: int, msg: str, *args: Any, exc_info: Any = None) -> bool:
        if kind in self._seen:
            return False
        self._seen.add(kind)
        self.logger.log(
            level,
            msg,
            *args,
            exc_info=exc_info,
            extra={"spider": getattr(self.crawler, "spider", None)},
            stacklevel=2,
        )
        return True
