"""A crawl remembers each site's template (``BOILERPLATE_SITE_MEMORY``): a block that an
earlier page of the site left out is left out of a later page too, in worker threads,
inline and in a worker process; ``0`` turns it off."""

from __future__ import annotations

import pytest
import scrapy
from scrapy.utils.defer import deferred_f_from_coro_f

from scrapy_boilerplate.filters import Filter

from .helpers import ADDON_SETTINGS, article_page

SIDEBAR = "About this blog: notes on harbours, markets and the people who keep them open."


class KeepAllButAMarkedSidebar(Filter):
    """Keeps every block, but the sidebar on pages whose ``<meta name="drop-sidebar">``
    says so (module-level: it goes to worker processes)."""

    name = "keep_all_but_a_marked_sidebar"

    def __call__(self, doc):
        drop = doc.root is not None and bool(doc.root.xpath("//meta[@name='drop-sidebar']"))
        for block in doc.blocks:
            block.is_content = not (drop and SIDEBAR in block.text)
        return True


class FirstThenSecondSpider(scrapy.Spider):
    """Reads the first page, then the second (so the second is extracted after it), each
    request with the ``boilerplate`` meta it is given (``first_meta``, ``second_meta``)."""

    name = "first_then_second"
    first_meta = second_meta = None

    async def start(self):
        yield self._request(self.first, self.first_meta)

    def start_requests(self):  # Scrapy < 2.13
        yield self._request(self.first, self.first_meta)

    def parse(self, response):
        yield {"url": response.url}
        if response.url == self.first:
            yield self._request(self.second, self.second_meta)

    def _request(self, url, overrides):
        meta = {} if overrides is None else {"boilerplate": overrides}
        return scrapy.Request(url, callback=self.parse, meta=meta)


def memory_settings(workers: int = 2, executor: str = "thread") -> dict:
    """The add-on with the extractor that leaves the marked sidebar out."""
    return {
        **ADDON_SETTINGS,
        "BOILERPLATE_EXTRACTOR": [KeepAllButAMarkedSidebar()],
        "BOILERPLATE_WORKERS": workers,
        "BOILERPLATE_EXECUTOR": executor,
    }


def site_pages_html() -> tuple[str, str]:
    """Two pages of a site with one sidebar: the first says to leave it out."""
    sidebar = f"<aside><p>{SIDEBAR}</p></aside>"
    first = article_page("the harbour", sidebar).replace(
        "<head>", "<head><meta name='drop-sidebar'>"
    )
    return first, article_page("the market", sidebar)


def site_pages(http_server) -> tuple[str, str]:
    first, second = site_pages_html()
    return (
        http_server.route("/first.html", first),
        http_server.route("/second.html", second),
    )


@pytest.mark.parametrize(
    "workers, executor, sites, sidebar_in_second",
    [
        (2, "thread", None, False),  # on by default
        (0, "thread", 16, False),
        (1, "process", 16, False),
        (2, "thread", 0, True),
        (2, "thread", False, True),
    ],
)
@deferred_f_from_coro_f
async def test_a_block_the_sites_first_page_left_out_is_left_out_of_the_second(
    http_server, crawl, workers, executor, sites, sidebar_in_second
):
    first, second = site_pages(http_server)
    settings = memory_settings(workers, executor)
    if sites is not None:
        settings["BOILERPLATE_SITE_MEMORY"] = sites
    items, _ = await crawl(FirstThenSecondSpider, settings, first=first, second=second)
    texts = {item["url"]: item["main_text"] for item in items}
    assert SIDEBAR not in texts[first]
    assert "the market" in texts[second]
    assert (SIDEBAR in texts[second]) is sidebar_in_second


@pytest.mark.parametrize("executor, workers", [("thread", 2), ("process", 1)])
@pytest.mark.parametrize(
    "first_meta, second_meta",
    [
        ({"site_memory": False}, None),  # the first page teaches nothing
        (None, {"site_memory": False}),  # the second page reads nothing
    ],
)
@deferred_f_from_coro_f
async def test_a_request_can_be_extracted_apart_from_the_sites_memory(
    http_server, crawl, executor, workers, first_meta, second_meta
):
    first, second = site_pages(http_server)
    settings = memory_settings(workers, executor)
    items, _ = await crawl(
        FirstThenSecondSpider, settings, first=first, second=second,
        first_meta=first_meta, second_meta=second_meta,
    )  # fmt: skip
    texts = {item["url"]: item["main_text"] for item in items}
    assert SIDEBAR not in texts[first]
    assert SIDEBAR in texts[second] and "the market" in texts[second]


@deferred_f_from_coro_f
async def test_a_site_memory_override_that_is_not_a_bool_fails_that_response_only(
    http_server, crawl
):
    first, second = site_pages(http_server)
    settings = memory_settings()
    items, crawler = await crawl(
        FirstThenSecondSpider, settings, first=first, second=second,
        second_meta={"site_memory": "no"},
    )  # fmt: skip
    by_url = {item["url"]: item for item in items}
    assert SIDEBAR not in by_url[first]["main_text"]
    assert len(by_url) == 2  # the item of the bad request is not lost
    assert crawler.stats.get_value("boilerplate/error_count/ValueError") == 1
