"""The example's news site: real article pages served on 127.0.0.1 (a free port).

``site/pages.json`` lists the pages (copied from the project's datasets, see CREDITS.md);
the index page linking them is generated. Pages are stored gzip-compressed and sent with
``Content-Encoding: gzip`` to clients that accept it (Scrapy does), which shows that the
extraction sees the decompressed body.
"""

from __future__ import annotations

import gzip
import html
import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

SITE_DIR = Path(__file__).resolve().parent.parent / "site"


def load_pages(site_dir: Path = SITE_DIR) -> list[dict]:
    return json.loads((site_dir / "pages.json").read_text(encoding="utf-8"))


def index_page(pages: list[dict]) -> bytes:
    links = "\n".join(
        f'<li><a class="article" href="/articles/{p["slug"]}.html">{html.escape(p["title"] or p["slug"])}</a></li>'
        for p in pages
    )
    return f"""<!DOCTYPE html>
<html><head><meta charset="utf-8"><title>The Example Gazette</title></head>
<body><h1>The Example Gazette</h1>
<p>Real article pages from public test sets, served locally. See CREDITS.md.</p>
<ul>
{links}
</ul></body></html>""".encode()


class NewsSite:
    """A threaded HTTP server for the site; ``start()`` returns its base URL."""

    def __init__(self, site_dir: Path = SITE_DIR, host: str = "127.0.0.1", port: int = 0):
        self.site_dir = site_dir
        self.pages = load_pages(site_dir)
        self.index = index_page(self.pages)
        self.httpd = ThreadingHTTPServer((host, port), self._handler())
        self.httpd.daemon_threads = True
        self._thread = threading.Thread(
            target=self.httpd.serve_forever, kwargs={"poll_interval": 0.1}, daemon=True
        )

    @property
    def url(self) -> str:
        host, port = self.httpd.server_address[:2]
        return f"http://{host}:{port}/"

    def start(self) -> str:
        self._thread.start()
        return self.url

    def stop(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        site = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def do_GET(self) -> None:  # noqa: N802
                path = self.path.split("?", 1)[0]
                headers = {"Content-Type": "text/html; charset=utf-8"}
                if path in ("/", "/index.html"):
                    body = site.index
                elif path.startswith("/articles/") and path.endswith(".html"):
                    slug = path[len("/articles/") : -len(".html")]
                    packed = site.site_dir / "articles" / f"{slug}.html.gz"
                    if "/" in slug or not packed.is_file():
                        return self._send(404, b"<html><body>Not found</body></html>", headers)
                    body = packed.read_bytes()
                    if "gzip" in (self.headers.get("Accept-Encoding") or ""):
                        headers["Content-Encoding"] = "gzip"
                    else:
                        body = gzip.decompress(body)
                else:
                    return self._send(404, b"<html><body>Not found</body></html>", headers)
                self._send(200, body, headers)

            def _send(self, status: int, body: bytes, headers: dict[str, str]) -> None:
                self.send_response(status)
                for name, value in headers.items():
                    self.send_header(name, value)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, format: str, *args: object) -> None:  # noqa: A002
                pass

        return Handler


if __name__ == "__main__":  # serve the site alone: python -m news_crawler.site
    site = NewsSite()
    print(f"Serving {len(site.pages)} articles at {site.start()} (Ctrl-C to stop)")
    try:
        threading.Event().wait()
    except KeyboardInterrupt:
        site.stop()
