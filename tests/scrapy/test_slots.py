"""A response waiting for its extraction lends its ``CONCURRENT_REQUESTS`` slot to the next
download (``_scrapy/slots.py``, ``BOILERPLATE_WAITING_RESPONSES``): the crawl downloads on
while pages are extracted, holds at most that many more responses, and loses none."""

from __future__ import annotations

import threading
import time
from typing import Any, NamedTuple

import pytest
from scrapy import signals
from scrapy.utils.defer import deferred_f_from_coro_f

from scrapy_boilerplate.filters import Filter

from .helpers import ADDON_SETTINGS, OneItemSpider, article_page

# module-level: Scrapy deep-copies the settings, and with them the filter
_LOCK = threading.Lock()
_RUNNING = [0]
_MOST = [0]


class SlowCounted(Filter):
    """Takes 0.3 s a page and records how many pages were being extracted at once."""

    name = "slow_counted"

    def __call__(self, doc):
        with _LOCK:
            _RUNNING[0] += 1
            _MOST[0] = max(_MOST[0], _RUNNING[0])
        time.sleep(0.3)
        with _LOCK:
            _RUNNING[0] -= 1
        return False


class SlowCrawl(NamedTuple):
    items: list
    crawler: Any
    most_at_once: int  # the most pages extracted at the same time
    limit_at_close: int  # the downloader's limit when the spider closed
    running_when_idle: list  # pages in extraction each time the engine found the crawl idle


async def crawl_slowly(http_server, crawl, **settings) -> SlowCrawl:
    """Eight pages, two CONCURRENT_REQUESTS, four worker threads, 0.3 s of extraction
    a page."""
    urls = [http_server.route(f"/{i}.html", article_page(f"page {i}")) for i in range(8)]
    _RUNNING[0] = _MOST[0] = 0
    limit_at_close: list[int] = []
    running_when_idle: list[int] = []

    class Spider(OneItemSpider):
        name = "slow_pages"

        @classmethod
        def from_crawler(cls, crawler, *args, **kwargs):
            spider = super().from_crawler(crawler, *args, **kwargs)
            crawler.signals.connect(spider.idle, signal=signals.spider_idle)
            return spider

        def idle(self):
            running_when_idle.append(_RUNNING[0])

        def closed(self, reason):
            limit_at_close.append(self.crawler.engine.downloader.total_concurrency)

    items, crawler = await crawl(
        Spider,
        {
            **ADDON_SETTINGS,
            "BOILERPLATE_EXTRACTOR": [SlowCounted(), "article"],
            "BOILERPLATE_WORKERS": 4,
            "CONCURRENT_REQUESTS": 2,
            **settings,
        },
        start_urls=urls,
    )
    return SlowCrawl(items, crawler, _MOST[0], limit_at_close[0], running_when_idle)


@deferred_f_from_coro_f
async def test_pages_waiting_for_extraction_let_the_crawl_download_on(http_server, crawl):
    run = await crawl_slowly(http_server, crawl)
    # two responses wait outside the limit (BOILERPLATE_WAITING_RESPONSES defaults to
    # CONCURRENT_REQUESTS), two more hold their slots: four extractions at once
    assert run.most_at_once == 4
    assert run.crawler.stats.get_value("boilerplate/lent_slots_max") == 2
    assert len(run.items) == 8
    assert all("The story about" in item["result"]["text"] for item in run.items)
    assert run.limit_at_close == 2  # every lent slot was given back


@deferred_f_from_coro_f
async def test_without_waiting_responses_a_page_keeps_its_slot_until_it_is_extracted(
    http_server, crawl
):
    run = await crawl_slowly(http_server, crawl, BOILERPLATE_WAITING_RESPONSES=0)
    assert run.most_at_once == 2
    assert run.crawler.stats.get_value("boilerplate/lent_slots_max") is None
    assert len(run.items) == 8 and run.limit_at_close == 2


@deferred_f_from_coro_f
async def test_the_number_of_waiting_responses_is_bounded_by_the_setting(http_server, crawl):
    run = await crawl_slowly(http_server, crawl, BOILERPLATE_WAITING_RESPONSES=1)
    assert run.most_at_once == 3
    assert run.crawler.stats.get_value("boilerplate/lent_slots_max") == 1


@deferred_f_from_coro_f
async def test_the_last_pages_being_extracted_do_not_make_the_crawl_idle(http_server, crawl):
    """A lent request stays in the downloader's active set: the engine does not take the
    crawl for idle, and close it, while its last pages are in the worker threads."""
    run = await crawl_slowly(http_server, crawl)
    assert run.running_when_idle and set(run.running_when_idle) == {0}
    assert len(run.items) == 8


def test_extraction_on_the_reactor_thread_lends_nothing():
    from scrapy.utils.test import get_crawler

    from scrapy_boilerplate.middlewares import BoilerplateDownloaderMiddleware

    crawler = get_crawler(settings_dict={"BOILERPLATE_WORKERS": 0})
    assert BoilerplateDownloaderMiddleware(crawler).slots.most == 0
    crawler = get_crawler(settings_dict={"CONCURRENT_REQUESTS": 5})
    assert BoilerplateDownloaderMiddleware(crawler).slots.most == 5


@pytest.mark.parametrize(
    ("settings", "expected"),
    [
        ({}, 16),  # Scrapy's CONCURRENT_REQUESTS default
        ({"CONCURRENT_REQUESTS": 32}, 32),
        ({"CONCURRENT_REQUESTS": 32, "BOILERPLATE_WAITING_RESPONSES": 4}, 4),
        ({"BOILERPLATE_WAITING_RESPONSES": 0}, 0),
        ({"BOILERPLATE_WAITING_RESPONSES": "8"}, 8),
    ],
)
def test_the_waiting_responses_default_to_concurrent_requests(settings, expected):
    from scrapy.utils.test import get_crawler

    from scrapy_boilerplate.settings import load_config

    assert load_config(get_crawler(settings_dict=settings).settings).waiting_responses == expected


@pytest.mark.parametrize("bad", [-1, "many", 2.5])
def test_a_bad_number_of_waiting_responses_names_the_setting(bad):
    from scrapy.utils.test import get_crawler

    from scrapy_boilerplate.settings import BoilerplateSettingError, load_config

    settings = get_crawler(settings_dict={"BOILERPLATE_WAITING_RESPONSES": bad}).settings
    with pytest.raises(BoilerplateSettingError, match="BOILERPLATE_WAITING_RESPONSES"):
        load_config(settings)


def test_a_lender_raises_the_limit_while_a_response_waits_and_lowers_it_after():
    """On the lender alone: where the engine has no scheduler to wake (another Scrapy),
    the slot is lent all the same; a downloader without a limit (0) lends nothing."""
    from types import SimpleNamespace

    from scrapy_boilerplate._scrapy.slots import SlotLender

    downloader = SimpleNamespace(total_concurrency=2)
    lender = SlotLender(SimpleNamespace(engine=SimpleNamespace(downloader=downloader)), 1)
    with lender.lending() as first:
        assert first and downloader.total_concurrency == 3
        with lender.lending() as second:  # past the bound: this one keeps its slot
            assert not second and downloader.total_concurrency == 3
    assert downloader.total_concurrency == 2 and lender.lent == 0
    try:
        with lender.lending():
            raise RuntimeError("the extraction failed")
    except RuntimeError:
        pass
    assert downloader.total_concurrency == 2 and lender.lent == 0  # given back all the same

    unlimited = SimpleNamespace(total_concurrency=0)
    lender = SlotLender(SimpleNamespace(engine=SimpleNamespace(downloader=unlimited)), 4)
    with lender.lending() as lent:
        assert not lent and unlimited.total_concurrency == 0
    with SlotLender(SimpleNamespace(engine=None), 4).lending() as lent:  # no crawl running
        assert not lent
