"""Helpers for the Scrapy layer's tests (pages, settings, a spider); imported by the test
modules."""

from __future__ import annotations

import scrapy

ADDON_SETTINGS = {"ADDONS": {"scrapy_boilerplate.addon.BoilerplateAddon": 0}}
MANUAL_SETTINGS = {
    "DOWNLOADER_MIDDLEWARES": {
        "scrapy_boilerplate.middlewares.BoilerplateDownloaderMiddleware": 585
    },
    "SPIDER_MIDDLEWARES": {"scrapy_boilerplate.middlewares.BoilerplateSpiderMiddleware": 950},
}
#: settings every test crawl uses: quiet, fast, local
BASE_SETTINGS = {
    "LOG_LEVEL": "INFO",
    "ROBOTSTXT_OBEY": False,
    "RETRY_ENABLED": False,
    "DOWNLOAD_TIMEOUT": 20,
    "CONCURRENT_REQUESTS": 8,
}


def article_page(topic: str, extra_body: str = "", title: str | None = None) -> str:
    """A small news page: navigation, a headline, three paragraphs, a footer."""
    title = title or f"News about {topic}"
    paragraphs = "\n".join(
        f"<p>{sentence}</p>"
        for sentence in (
            f"The story about {topic} began early on Tuesday morning, when residents of the "
            "old harbour district noticed that the usual market had not opened on time and "
            "that the square was unusually quiet for a working day in late spring.",
            f"Officials said later that the delay around {topic} was caused by a dispute over "
            "new permits, which the city council had approved the week before after a long "
            "debate about costs, safety rules and the future of the small traders.",
            f"By the afternoon most stalls were open again, and the traders said they hoped "
            f"the matter of {topic} would be settled for good at the next council meeting, "
            "which is planned for the first Monday of the coming month in the town hall.",
        )
    )
    return f"""<!DOCTYPE html><html><head><title>{title}</title></head><body>
<div class="nav"><a href="/">Home</a> | <a href="/news">News</a> | <a href="/sport">Sport</a>
| <a href="/weather">Weather</a></div>
<h1>{title}</h1>
{paragraphs}
{extra_body}
<div class="footer"><a href="/about">About us</a> <a href="/contact">Contact</a>
<a href="/privacy">Privacy</a></div>
</body></html>"""


class OneItemSpider(scrapy.Spider):
    """One dict item per response, whatever its status; ``meta_for`` sets request meta."""

    name = "one_item"
    meta_for: dict = {}

    async def start(self):
        for request in self._requests():
            yield request

    def start_requests(self):  # Scrapy < 2.13
        yield from self._requests()

    def _requests(self):
        for url in self.start_urls:
            meta = {"handle_httpstatus_list": [404], **self.meta_for.get(url, {})}
            yield scrapy.Request(url, meta=meta, callback=self.parse)

    def parse(self, response):
        yield {
            "url": response.url,
            "status": response.status,
            "result": response.meta.get("boilerplate_result"),
        }
