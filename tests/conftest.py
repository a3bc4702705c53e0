"""Fixtures shared by the whole test suite.

Keep this file free of Scrapy imports at module level: the engine's tests must be able to
check that importing the engine does not import Scrapy.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest


@dataclass
class Route:
    body: bytes = b""
    status: int = 200
    headers: dict[str, str] = field(default_factory=dict)


class LocalHTTPServer:
    """A threaded HTTP server on 127.0.0.1, on a free port, serving registered routes.

    ``route(path, body, status=200, headers=None, content_type=...)`` registers a page;
    unknown paths answer 404. ``requests`` lists the paths asked for, in order.
    """

    def __init__(self) -> None:
        self.routes: dict[str, Route] = {}
        self.requests: list[str] = []
        self._lock = threading.Lock()
        handler = _make_handler(self)
        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self.httpd.daemon_threads = True
        self.port = self.httpd.server_address[1]
        self._thread = threading.Thread(
            target=self.httpd.serve_forever,
            kwargs={"poll_interval": 0.02},  # quick shutdown
            name="test-http-server",
            daemon=True,
        )

    def start(self) -> LocalHTTPServer:
        self._thread.start()
        return self

    def stop(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()
        self._thread.join(timeout=5)

    def url(self, path: str = "/") -> str:
        return f"http://127.0.0.1:{self.port}{path}"

    def route(
        self,
        path: str,
        body: bytes | str = b"",
        status: int = 200,
        headers: dict[str, str] | None = None,
        content_type: str | None = "text/html; charset=utf-8",
    ) -> str:
        """Serve ``body`` at ``path``; returns the full URL."""
        if isinstance(body, str):
            body = body.encode("utf-8")
        all_headers = dict(headers or {})
        if content_type is not None:
            all_headers.setdefault("Content-Type", content_type)
        self.routes[path] = Route(body, status, all_headers)
        return self.url(path)

    def _record(self, path: str) -> None:
        with self._lock:
            self.requests.append(path)


def _make_handler(server: LocalHTTPServer) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def do_GET(self) -> None:  # noqa: N802 - http.server's naming
            server._record(self.path)
            route = server.routes.get(self.path)
            if route is None:
                route = Route(
                    b"<html><body>Not found</body></html>", 404, {"Content-Type": "text/html"}
                )
            self.send_response(route.status)
            for name, value in route.headers.items():
                self.send_header(name, value)
            self.send_header("Content-Length", str(len(route.body)))
            self.end_headers()
            self.wfile.write(route.body)

        def log_message(self, format: str, *args: object) -> None:  # noqa: A002
            pass  # keep test output quiet

    return Handler


@pytest.fixture
def http_server() -> Iterator[LocalHTTPServer]:
    """A fresh local HTTP server (127.0.0.1, free port) for one test."""
    server = LocalHTTPServer().start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def crawl():
    """``await crawl(SpiderClass, settings)`` runs a real crawl; returns (items, crawler)."""

    async def _crawl(spidercls, settings=None, **spider_kwargs):
        from scrapy import signals
        from scrapy.utils.defer import maybe_deferred_to_future
        from scrapy.utils.test import get_crawler

        from .scrapy.helpers import BASE_SETTINGS

        crawler = get_crawler(spidercls, {**BASE_SETTINGS, **(settings or {})})
        items = []

        def collect(item, response=None, spider=None):
            items.append(item)

        crawler.signals.connect(collect, signal=signals.item_scraped)
        if hasattr(crawler, "crawl_async"):  # Scrapy 2.14+
            await crawler.crawl_async(**spider_kwargs)
        else:  # pragma: no cover - older Scrapy
            await maybe_deferred_to_future(crawler.crawl(**spider_kwargs))
        return items, crawler

    return _crawl
