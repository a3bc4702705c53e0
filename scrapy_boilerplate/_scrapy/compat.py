"""What older Scrapy versions lack, and which reactor a crawl runs on."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from scrapy.utils.defer import maybe_deferred_to_future

try:  # Scrapy 2.15+: asyncio.to_thread or deferToThread, whichever the crawl can await
    from scrapy.utils.asyncio import run_in_thread as _scrapy_run_in_thread
except ImportError:  # pragma: no cover - older Scrapy
    _scrapy_run_in_thread = None

__all__ = [
    "BaseSpiderMiddleware",
    "asyncio_available",
    "asyncio_expected",
    "run_in_thread",
    "setdefault_in_component_priority_dict",
]

_T = TypeVar("_T")


async def run_in_thread(func: Callable[..., _T], *args: Any) -> _T:
    """Call ``func(*args)`` in a thread and await its result, on any Scrapy we support."""
    if _scrapy_run_in_thread is not None:
        return await _scrapy_run_in_thread(func, *args)
    from twisted.internet.threads import deferToThread  # pragma: no cover - Scrapy < 2.15

    return await maybe_deferred_to_future(deferToThread(func, *args))  # pragma: no cover


def asyncio_available() -> bool:
    try:
        from scrapy.utils.asyncio import is_asyncio_available  # Scrapy 2.14+

        return is_asyncio_available()
    except ImportError:  # pragma: no cover - older Scrapy
        from scrapy.utils.reactor import is_asyncio_reactor_installed

        return is_asyncio_reactor_installed()


_ASYNCIO_REACTOR = "twisted.internet.asyncioreactor.AsyncioSelectorReactor"


def asyncio_expected(settings: Any) -> bool:
    """Whether the crawl runs on asyncio, also when asked before its reactor is installed
    (then by the reactor its settings name, or Scrapy's reactor-less mode)."""
    try:
        return asyncio_available()
    except RuntimeError:  # no reactor or loop yet
        return settings.get("TWISTED_REACTOR") == _ASYNCIO_REACTOR or not settings.getbool(
            "TWISTED_ENABLED", True
        )


def setdefault_in_component_priority_dict(
    settings: Any, name: str, cls: type, priority: int
) -> None:
    """Add ``cls`` to the component dict setting ``name`` unless it is there already
    (as a class or an import path). Scrapy 2.13+ has this as a Settings method."""
    method = getattr(settings, "setdefault_in_component_priority_dict", None)
    if method is not None:
        method(name, cls, priority)
        return
    from scrapy.utils.misc import load_object  # pragma: no cover - Scrapy < 2.13

    components = settings.getdict(name)  # pragma: no cover
    for key in components:  # pragma: no cover
        try:
            if key is cls or load_object(key) is cls:
                return
        except (ImportError, NameError, ValueError, AttributeError):
            continue
    components[cls] = priority  # pragma: no cover
    settings.set(name, components, settings.getpriority(name) or 0)  # pragma: no cover


try:
    from scrapy.spidermiddlewares.base import BaseSpiderMiddleware
except ImportError:  # pragma: no cover - Scrapy < 2.13

    class BaseSpiderMiddleware:  # type: ignore[no-redef]
        """What Scrapy 2.13's BaseSpiderMiddleware provides, for older Scrapy."""

        def __init__(self, crawler: Any) -> None:
            self.crawler = crawler

        @classmethod
        def from_crawler(cls, crawler: Any) -> Any:
            return cls(crawler)

        def process_spider_output(self, response: Any, result: Any, spider: Any = None) -> Any:
            for o in result:
                if (o := self._get_processed(o, response)) is not None:
                    yield o

        async def process_spider_output_async(
            self, response: Any, result: Any, spider: Any = None
        ) -> Any:
            async for o in result:
                if (o := self._get_processed(o, response)) is not None:
                    yield o

        def _get_processed(self, o: Any, response: Any) -> Any:
            from scrapy import Request

            if isinstance(o, Request):
                return o
            return self.get_processed_item(o, response)

        def get_processed_item(self, item: Any, response: Any) -> Any:
            return item
