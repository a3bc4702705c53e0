"""A response waiting for its extraction gives its ``CONCURRENT_REQUESTS`` slot to the
next download.

Scrapy counts a request against ``CONCURRENT_REQUESTS`` until the downloader middlewares
are done with its response, so a response that waits in ours for a worker keeps a slot
that no download uses: with 16 slots and 2.5 ms of extraction a page, a local crawl of
news pages lost a tenth of its pages/s to the wait alone (docs/scrapy.md, "Measured").
:class:`SlotLender` raises the downloader's limit by one for each such response, up to
``BOILERPLATE_WAITING_RESPONSES`` at once (so the responses held in memory stay bounded),
and lowers it again when the extraction ends. The network never sees more than
``CONCURRENT_REQUESTS`` downloads: a lent slot is one a waiting response does not use.

The request stays in the downloader's ``active`` set, so the engine does not take the
crawl for idle (and close it) while the last pages are being extracted.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

__all__ = ["SlotLender"]


class SlotLender:
    """Lends the slots of responses waiting for their extraction to new downloads."""

    def __init__(self, crawler: Any, most: int) -> None:
        """``most``: how many responses may wait outside the limit at once (0: none)."""
        self.crawler = crawler
        self.most = most
        self.lent = 0

    @contextmanager
    def lending(self) -> Iterator[bool]:
        """Around the wait for one response's extraction; yields whether its slot was lent."""
        downloader = self._downloader()
        if downloader is None or self.lent >= self.most:
            yield False
            return
        self.lent += 1
        downloader.total_concurrency += 1
        self._wake_the_engine()
        try:
            yield True
        finally:
            downloader.total_concurrency -= 1
            self.lent -= 1

    def _downloader(self) -> Any:
        """The crawl's downloader, if it has a limit to raise (0 means no limit)."""
        downloader = getattr(getattr(self.crawler, "engine", None), "downloader", None)
        limit = getattr(downloader, "total_concurrency", None)
        if not isinstance(limit, int) or limit <= 0:
            return None
        return downloader

    def _wake_the_engine(self) -> None:
        """Have the engine send the next request now rather than when another download
        ends. Scrapy has no public call for it; without one (another Scrapy) the slot is
        still lent and used at the engine's next turn."""
        slot = getattr(getattr(self.crawler, "engine", None), "_slot", None)
        schedule = getattr(getattr(slot, "nextcall", None), "schedule", None)
        if callable(schedule):
            schedule()
