"""Logging once per kind of event per crawl."""

from __future__ import annotations

import logging
from typing import Any

__all__ = ["OnceLogger"]


#: the kinds of message one crawl logs at most (a kind is a type of exception, a reason, an
#: item class...: a few dozen in a real crawl); past it nothing new is logged, so that no
#: kind made of outside data can grow the set, or the log, without bound
MAX_KINDS = 1000


class OnceLogger:
    """Logs a message once per kind per crawl; later ones of the same kind are only counted."""

    def __init__(self, logger: logging.Logger, crawler: Any) -> None:
        self.logger = logger
        self.crawler = crawler
        self._seen: set[Any] = set()

    def __call__(self, kind: Any, level: int, msg: str, *args: Any, exc_info: Any = None) -> bool:
        if kind in self._seen or len(self._seen) >= MAX_KINDS:
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
