"""Real crawls against a local server: components, item types, configuration levels."""

from __future__ import annotations

import dataclasses
import logging
import threading

import attr
import pytest
import scrapy
from bp_testing import ADDON_SETTINGS, article_page
from scrapy.exceptions import ScrapyDeprecationWarning
from scrapy.utils.defer import deferred_f_from_coro_f

from scrapy_boilerplate.filters import Filter


# -- item types ------------------------------------------------------------------------------
class ArticleItem(scrapy.Item):
    url = scrapy.Field()
    main_text = scrapy.Field()
    title = scrapy.Field()


class BareItem(scrapy.Item):
    url = scrapy.Field()


@dataclasses.dataclass
class ArticleData:
    url: str
    main_text: str | None = None
    title: str | None = None


@dataclasses.dataclass
class BareData:
    url: str


@attr.s(auto_attribs=True)
class ArticleAttrs:
    url: str
    main_text: str | None = None
    title: str | None = None


@attr.s(auto_attribs=True)
class BareAttrs:
    url: str


WITH_FIELDS = (dict, ArticleItem, ArticleData, ArticleAttrs)
WITHOUT_FIELDS = (BareItem, BareData, BareAttrs)


def make(cls, url):
    return cls(url=url)


def get(item, name):
    from itemadapter import ItemAdapter

    return ItemAdapter(item).get(name)


class AllItemsSpider(scrapy.Spider):
    """Yields one item of every kind per page (and no requests)."""

    name = "all_items"
    custom_settings: dict = {}

    def parse(self, response):
        for cls in WITH_FIELDS + WITHOUT_FIELDS:
            yield make(cls, response.url)


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


# -- add-on and manual setup, every item type --------------------------------------------------
@deferred_f_from_coro_f
async def test_every_item_type_gets_text_and_title(http_server, crawl, plugin_settings, caplog):
    urls = [
        http_server.route("/a.html", article_page("the harbour market")),
        http_server.route("/b.html", article_page("the old bridge")),
    ]
    caplog.set_level(logging.WARNING)
    items, crawler = await crawl(AllItemsSpider, plugin_settings, start_urls=urls)

    assert len(items) == 2 * (len(WITH_FIELDS) + len(WITHOUT_FIELDS))
    for item in items:
        url = get(item, "url")
        topic = "the harbour market" if url.endswith("/a.html") else "the old bridge"
        if isinstance(item, WITH_FIELDS):
            assert f"The story about {topic} began" in get(item, "main_text")
            assert "Contact" not in get(item, "main_text")
            assert get(item, "title") == f"News about {topic}"
        else:
            assert not hasattr(item, "main_text") and "main_text" not in dict(item.__dict__)

    stats = crawler.stats.get_stats()
    assert stats["boilerplate/response_count"] == 2
    assert stats["boilerplate/extracted_count"] == 2
    assert stats["boilerplate/item_filled_count"] == 2 * len(WITH_FIELDS)
    # two fields (text, title) missing on each of 3 classes, on each of 2 pages
    assert stats["boilerplate/item_field_missing"] == 2 * 2 * len(WITHOUT_FIELDS)
    warnings = [r for r in caplog.records if "have no field" in r.getMessage()]
    assert len(warnings) == len(WITHOUT_FIELDS)  # once per class
    assert all("'main_text' nor 'title'" in r.getMessage() for r in warnings)
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]


@deferred_f_from_coro_f
async def test_result_in_meta_is_small_plain_data(http_server, crawl):
    url = http_server.route("/a.html", article_page("the harbour market"))
    items, _ = await crawl(OneItemSpider, ADDON_SETTINGS, start_urls=[url])
    (item,) = items
    result = item["result"]
    # one shape for every outcome: Extraction.to_dict(), with the whole time in timings
    assert set(result) == {
        "url", "title", "text", "extractor", "reason", "error", "warnings", "timings"
    }  # fmt: skip
    assert result["extractor"] == "article"
    assert result["reason"] is None and result["error"] is None
    assert result["title"] == "News about the harbour market"
    assert set(result["timings"]) == {"parse_ms", "filter_ms", "render_ms", "total_ms"}
    assert result["timings"]["total_ms"] >= result["timings"]["parse_ms"] > 0
    # plain data only (picklable with JOBDIR, no DOM)
    import pickle

    assert pickle.loads(pickle.dumps(result)) == result


@deferred_f_from_coro_f
async def test_existing_values_are_kept_unless_overwrite(http_server, crawl):
    url = http_server.route("/a.html", article_page("the harbour market"))

    class PrefilledSpider(scrapy.Spider):
        name = "prefilled"

        def parse(self, response):
            yield {"url": response.url, "title": "My own title", "main_text": ""}

    items, crawler = await crawl(PrefilledSpider, ADDON_SETTINGS, start_urls=[url])
    assert items[0]["title"] == "My own title"  # kept
    assert "harbour market" in items[0]["main_text"]  # empty: filled
    assert crawler.stats.get_value("boilerplate/item_field_kept") == 1

    items, _ = await crawl(
        PrefilledSpider, {**ADDON_SETTINGS, "BOILERPLATE_OVERWRITE": True}, start_urls=[url]
    )
    assert items[0]["title"] == "News about the harbour market"


@deferred_f_from_coro_f
async def test_zyte_preset_fills_article_body_and_headline(http_server, crawl):
    url = http_server.route("/a.html", article_page("the harbour market"))

    @attr.s(auto_attribs=True)
    class Article:  # the zyte-common-items Article field names
        url: str
        headline: str | None = None
        articleBody: str | None = None  # noqa: N815

    class ZyteSpider(scrapy.Spider):
        name = "zyte"

        def parse(self, response):
            yield Article(url=response.url)

    items, crawler = await crawl(
        ZyteSpider, {**ADDON_SETTINGS, "BOILERPLATE_ITEM_PRESET": "zyte"}, start_urls=[url]
    )
    (item,) = items
    assert item.headline == "News about the harbour market"
    assert "The story about the harbour market" in item.articleBody
    assert crawler.stats.get_value("boilerplate/item_field_missing") is None


@deferred_f_from_coro_f
async def test_json_output_format(http_server, crawl):
    url = http_server.route("/a.html", article_page("the harbour market"))
    items, _ = await crawl(
        AllItemsSpider, {**ADDON_SETTINGS, "BOILERPLATE_OUTPUT_FORMAT": "json"}, start_urls=[url]
    )
    value = next(i for i in items if isinstance(i, dict))["main_text"]
    assert isinstance(value, dict)
    assert set(value) == {
        "url", "title", "text", "extractor", "reason", "error", "warnings", "timings"
    }  # fmt: skip
    assert "harbour market" in value["text"]


# -- configuration levels ----------------------------------------------------------------------
NAV = "Home | News | Sport"


@deferred_f_from_coro_f
async def test_per_spider_extractor(http_server, crawl):
    url = http_server.route("/a.html", article_page("the harbour market"))

    class KeepAllSpider(OneItemSpider):
        name = "keep_all"
        custom_settings = {"BOILERPLATE_EXTRACTOR": "keep_everything"}

    items, _ = await crawl(KeepAllSpider, ADDON_SETTINGS, start_urls=[url])
    result = items[0]["result"]
    assert result["extractor"] == "keep_everything"
    assert "Home" in result["text"] and "Privacy" in result["text"]

    # a spider's spec (spider priority) beats the project's, in either setting while the
    # deprecated BOILERPLATE_CHAIN is read
    class ChainSpider(OneItemSpider):
        name = "chain"
        custom_settings = {"BOILERPLATE_EXTRACTOR": ["keep_everything"]}

    items, _ = await crawl(
        ChainSpider, {**ADDON_SETTINGS, "BOILERPLATE_EXTRACTOR": "article"}, start_urls=[url]
    )
    assert "Privacy" in items[0]["result"]["text"]

    class ExtractorSpider(OneItemSpider):
        name = "extractor"
        custom_settings = {"BOILERPLATE_EXTRACTOR": "article"}

    with pytest.warns(ScrapyDeprecationWarning, match="BOILERPLATE_CHAIN is deprecated"):
        items, _ = await crawl(
            ExtractorSpider,
            {**ADDON_SETTINGS, "BOILERPLATE_CHAIN": ["keep_everything"]},
            start_urls=[url],
        )
    assert items[0]["result"]["extractor"] == "article"
    assert "Privacy" not in items[0]["result"]["text"]


@deferred_f_from_coro_f
async def test_a_chain_without_readers_comments(http_server, crawl):
    thread = (
        '<ol class="commentlist"><li class="comment"><p>Nobody asked the traders before the '
        "permits were changed, and now everybody is surprised that the market is late.</p>"
        "</li></ol>"
    )
    url = http_server.route("/a.html", article_page("the harbour market", extra_body=thread))

    class CommentsSpider(OneItemSpider):
        name = "comments"
        custom_settings = {"BOILERPLATE_EXTRACTOR": ["keep_everything", "comment_sections"]}

    items, _ = await crawl(CommentsSpider, ADDON_SETTINGS, start_urls=[url])
    text = items[0]["result"]["text"]
    assert "the usual market had not opened" in text
    assert "Nobody asked the traders" not in text
    assert "Privacy" in text  # keep_everything's other choices stand


@deferred_f_from_coro_f
async def test_per_spider_disabled(http_server, crawl, caplog):
    url = http_server.route("/a.html", article_page("the harbour market"))

    class OffSpider(AllItemsSpider):
        name = "off"
        custom_settings = {"BOILERPLATE_ENABLED": False}

    caplog.set_level(logging.WARNING)
    items, crawler = await crawl(OffSpider, ADDON_SETTINGS, start_urls=[url])
    assert items and all(get(i, "main_text") is None for i in items)
    assert crawler.stats.get_value("boilerplate/response_count") is None
    assert "BOILERPLATE_ENABLED is False" in caplog.text


@deferred_f_from_coro_f
async def test_per_domain_extractor(http_server, crawl):
    url = http_server.route("/a.html", article_page("the harbour market"))
    settings = {
        **ADDON_SETTINGS,
        "BOILERPLATE_DOMAIN_EXTRACTORS": {
            "127.0.0.1": "keep_everything",
            "example.com": "default",
        },
    }
    items, _ = await crawl(OneItemSpider, settings, start_urls=[url])
    assert items[0]["result"]["extractor"] == "keep_everything"


@deferred_f_from_coro_f
async def test_per_request_meta(http_server, crawl):
    default = http_server.route("/default.html", article_page("the harbour market"))
    keep = http_server.route("/keep.html", article_page("the old bridge"))
    off = http_server.route("/off.html", article_page("the new school"))
    copied = http_server.route("/copied.html", article_page("the town hall"))
    previous_result = {"text": "old", "title": "old", "extractor": "default", "reason": None}
    meta_for = {
        keep: {"boilerplate": {"extractor": "keep_everything"}},
        off: {"boilerplate": False},
        # meta=response.meta copied by a spider: the overrides hold, the result is replaced
        copied: {
            "boilerplate": {"extractor": "keep_everything"},
            "boilerplate_result": previous_result,
        },
    }
    items, crawler = await crawl(
        OneItemSpider, ADDON_SETTINGS, start_urls=[default, keep, off, copied], meta_for=meta_for
    )
    by_url = {i["url"]: i["result"] for i in items}
    assert by_url[default]["extractor"] == "article"
    assert by_url[keep]["extractor"] == "keep_everything"
    assert by_url[off]["reason"] == "disabled" and by_url[off]["text"] == ""
    assert by_url[copied]["extractor"] == "keep_everything"
    assert "town hall" in by_url[copied]["text"]
    assert crawler.stats.get_value("boilerplate/skipped/disabled") == 1
    assert crawler.stats.get_value("boilerplate/extracted_count") == 3


@deferred_f_from_coro_f
async def test_bad_per_request_spec_fails_that_page_only(http_server, crawl, caplog):
    bad = http_server.route("/bad.html", article_page("the harbour market"))
    good = http_server.route("/good.html", article_page("the old bridge"))
    caplog.set_level(logging.WARNING)
    items, crawler = await crawl(
        OneItemSpider,
        ADDON_SETTINGS,
        start_urls=[bad, good],
        meta_for={bad: {"boilerplate": {"extractor": ["no_such_filter"]}}},
    )
    by_url = {i["url"]: i["result"] for i in items}
    assert by_url[bad]["reason"] == "error" and "no_such_filter" in by_url[bad]["error"]
    assert "old bridge" in by_url[good]["text"]
    assert crawler.stats.get_value("boilerplate/error_count/ChainSpecError") == 1
    assert caplog.text.count("Bad meta") == 1


@deferred_f_from_coro_f
async def test_the_deprecated_chain_meta_key_still_works(http_server, crawl):
    url = http_server.route("/keep.html", article_page("the old bridge"))
    with pytest.warns(ScrapyDeprecationWarning, match=r'\["chain"\] is deprecated'):
        items, _ = await crawl(
            OneItemSpider,
            ADDON_SETTINGS,
            start_urls=[url],
            meta_for={url: {"boilerplate": {"chain": ["keep_everything"]}}},
        )
    assert "Privacy" in items[0]["result"]["text"]


# -- a site with bad pages -------------------------------------------------------------------
class Explode(Filter):
    """A test filter that fails on pages whose title says so."""

    name = "explode"

    def __call__(self, doc):
        if doc.title and "explode" in doc.title:
            raise RuntimeError("boom")
        return False


@deferred_f_from_coro_f
async def test_site_with_bad_pages(http_server, crawl, caplog):
    import gzip

    routes = {
        "/good.html": (article_page("the harbour market"), {}),
        "/gzip.html": (
            gzip.compress(article_page("the compressed page").encode()),
            {"Content-Encoding": "gzip"},
        ),
        "/empty.html": (b"", {}),
        "/whitespace.html": (b"   \n  ", {}),
        "/nav-only.html": (b"<html><body><a href='/'>Home</a></body></html>", {}),
        "/huge.html": (article_page("a huge page", "<p>filler words here</p>" * 6000), {}),
        "/binary.bin": (bytes(range(256)) * 40, {"Content-Type": "application/octet-stream"}),
        "/image.png": (b"\x89PNG\r\n\x1a\n" + b"\x00" * 500, {"Content-Type": "image/png"}),
        "/data.json": (b'{"title": "not a page"}', {"Content-Type": "application/json"}),
        "/explode.html": (article_page("x", title="please explode"), {}),
        "/deep.html": (("<div>" * 5000 + "deep text" + "</div>" * 5000).encode(), {}),
        "/latin1.html": (
            article_page("caf\u00e9 cr\u00e8me").encode("latin-1"),
            {"Content-Type": "text/html; charset=iso-8859-1"},
        ),
    }
    urls = []
    for path, (body, headers) in routes.items():
        headers = dict(headers)
        ctype = headers.pop("Content-Type", "text/html; charset=utf-8")
        urls.append(http_server.route(path, body, headers=headers, content_type=ctype))
    target = http_server.route("/target.html", article_page("the redirect target"))
    urls.append(http_server.route("/redirect", b"", 302, {"Location": target}))
    urls.append(http_server.url("/missing.html"))  # 404

    caplog.set_level(logging.DEBUG, logger="scrapy_boilerplate")
    settings = {
        **ADDON_SETTINGS,
        "BOILERPLATE_MAX_BYTES": 100_000,
        "BOILERPLATE_EXTRACTOR": ["article", Explode()],
    }
    items, crawler = await crawl(OneItemSpider, settings, start_urls=urls)

    assert len(items) == len(urls)  # every item delivered
    by_path = {i["url"].split(str(http_server.port), 1)[1]: i for i in items}
    assert "compressed page" in by_path["/gzip.html"]["result"]["text"]
    assert "redirect target" in by_path["/target.html"]["result"]["text"]
    assert "caf\u00e9 cr\u00e8me" in by_path["/latin1.html"]["result"]["text"]
    assert by_path["/empty.html"]["result"]["reason"] == "empty_input"
    assert by_path["/huge.html"]["result"]["reason"] == "too_large"
    assert by_path["/image.png"]["result"]["reason"] == "non_html"
    assert by_path["/missing.html"]["result"]["reason"] == "status"
    assert by_path["/explode.html"]["result"]["error"] == "RuntimeError: boom"

    stats = crawler.stats.get_stats()
    assert stats["boilerplate/response_count"] == len(urls)  # the 302 never reaches us
    assert stats["boilerplate/extracted_count"] == 4  # good, gzip, latin1, target
    assert stats["boilerplate/skipped/non_html"] == 3  # binary, image, json
    assert stats["boilerplate/skipped/too_large"] == 1
    assert stats["boilerplate/skipped/status"] == 1
    assert stats["boilerplate/error_count/RuntimeError"] == 1
    assert stats["boilerplate/empty_count"] == 4
    assert stats["boilerplate/empty/empty_input"] == 2  # empty, whitespace
    # nav-only, deep (cut at libxml2's limit): no text blocks, or none kept
    assert (
        stats.get("boilerplate/empty/no_text", 0) + stats.get("boilerplate/empty/no_content", 0)
        == 2
    )
    assert stats["httpcompression/response_count"] == 1
    # one log line per problem kind, never the page
    assert caplog.text.count("Extraction failed") == 1
    assert caplog.text.count("BOILERPLATE_MAX_BYTES") == 1
    assert caplog.text.count("not HTML") == 1
    assert "filler words here" not in caplog.text
    assert stats["finish_reason"] == "finished"


# -- a broken setting stops the crawl at start ---------------------------------------------
@pytest.mark.parametrize(
    ("setting", "value", "message"),
    [
        (
            "BOILERPLATE_EXTRACTOR",
            ["article", "no_such_filter"],
            "BOILERPLATE_EXTRACTOR: chain entry 1",
        ),
        ("BOILERPLATE_EXTRACTOR", "myproject.nope.Filter", "BOILERPLATE_EXTRACTOR"),
        ("BOILERPLATE_MAX_BYTES", "lots", "BOILERPLATE_MAX_BYTES"),
        ("BOILERPLATE_DOMAIN_EXTRACTORS", {"https://x.com/": "article"}, "DOMAIN_EXTRACTORS"),
        ("BOILERPLATE_OUTPUT_FORMAT", "pdf", "BOILERPLATE_OUTPUT_FORMAT"),
    ],
)
@deferred_f_from_coro_f
async def test_broken_setting_stops_the_crawl_at_start(http_server, crawl, setting, value, message):
    from scrapy_boilerplate.settings import BoilerplateSettingError

    urls = [http_server.route(f"/{i}.html", article_page(str(i))) for i in range(3)]
    with pytest.raises(BoilerplateSettingError, match=message.replace("[", r"\[")):
        await crawl(OneItemSpider, {**ADDON_SETTINGS, setting: value}, start_urls=urls)
    assert http_server.requests == []  # stopped before the first request


# -- off the reactor thread ------------------------------------------------------------------
THREADS_SEEN: list[threading.Thread] = []


class RecordThread(Filter):
    """Records the thread it runs in (module-level: Scrapy deep-copies settings)."""

    name = "record_thread"

    def __call__(self, doc):
        THREADS_SEEN.append(threading.current_thread())
        return False


@pytest.mark.parametrize("workers", [2, 0])
@deferred_f_from_coro_f
async def test_extraction_runs_off_the_reactor_thread(http_server, crawl, workers):
    urls = [http_server.route(f"/{i}.html", article_page(f"page {i}")) for i in range(6)]
    THREADS_SEEN.clear()
    settings = {
        **ADDON_SETTINGS,
        "BOILERPLATE_EXTRACTOR": ["article", RecordThread()],
        "BOILERPLATE_WORKERS": workers,
    }
    items, crawler = await crawl(OneItemSpider, settings, start_urls=urls)
    assert len(THREADS_SEEN) == 6
    main = threading.main_thread()
    if workers:
        assert all(t is not main for t in THREADS_SEEN)
    else:  # 0: inline, on the reactor thread
        assert all(t is main for t in THREADS_SEEN)
    assert crawler.stats.get_value("boilerplate/extracted_count") == 6


@deferred_f_from_coro_f
async def test_extraction_in_worker_processes(http_server, crawl):
    urls = [http_server.route(f"/{i}.html", article_page(f"page {i}")) for i in range(4)]
    # the worker gets the bytes and decodes them as Scrapy would: a charset in the header,
    # one in a <meta>, none at all
    page = article_page("страница") + "<!-- «ещё» -->"
    urls.append(
        http_server.route(
            "/cp1251.html", page.encode("cp1251"), content_type="text/html; charset=windows-1251"
        )
    )
    meta = page.replace("<head>", "<head><meta charset='koi8-r'>")
    urls.append(
        http_server.route(
            "/koi8.html", meta.encode("koi8_r", errors="replace"), content_type="text/html"
        )
    )
    urls.append(http_server.route("/plain.html", page.encode("utf-8"), content_type="text/html"))
    settings = {**ADDON_SETTINGS, "BOILERPLATE_EXECUTOR": "process", "BOILERPLATE_WORKERS": 1}
    items, crawler = await crawl(OneItemSpider, settings, start_urls=urls)
    assert crawler.stats.get_value("boilerplate/extracted_count") == 7
    assert all("The story about " in i["result"]["text"] for i in items)
    assert sum("The story about страница" in i["result"]["text"] for i in items) == 3


class KillWorker(Filter):
    """A test filter that ends its worker process on pages whose title says so (as the
    kernel's out-of-memory killer would)."""

    name = "kill_worker"

    def __call__(self, doc):
        import os

        if doc.title and "kill the worker" in doc.title:
            os._exit(9)
        return False


@deferred_f_from_coro_f
async def test_a_worker_process_that_dies_loses_no_item(http_server, crawl):
    good = [http_server.route(f"/{i}.html", article_page(f"page {i}")) for i in range(6)]
    fatal = http_server.route("/fatal.html", article_page("x", title="kill the worker"))
    settings = {
        **ADDON_SETTINGS,
        "BOILERPLATE_EXTRACTOR": ["article", KillWorker()],
        "BOILERPLATE_EXECUTOR": "process",
        "BOILERPLATE_WORKERS": 1,
        "CONCURRENT_REQUESTS": 1,  # one call in flight: only the fatal page fails
    }
    items, crawler = await crawl(OneItemSpider, settings, start_urls=[*good[:3], fatal, *good[3:]])
    by_url = {i["url"]: i["result"] for i in items}
    assert len(items) == 7
    assert by_url[fatal]["reason"] == "error" and "WorkerDied" in by_url[fatal]["error"]
    stats = crawler.stats
    assert stats.get_value("boilerplate/error_count/WorkerDied") == 1
    assert stats.get_value("boilerplate/extracted_count") == 6
    # the pages after it went to a fresh worker
    assert all("The story about " in by_url[u]["text"] for u in good[3:])


class RecordsTheWorkersAtOpening(OneItemSpider):
    """Notes, when the spider opens, whether the crawl's worker processes were started."""

    name = "records_workers"

    @classmethod
    def from_crawler(cls, crawler, *args, **kwargs):
        spider = super().from_crawler(crawler, *args, **kwargs)
        crawler.signals.connect(spider.record_workers, signal=scrapy.signals.spider_opened)
        return spider

    def record_workers(self, spider):
        from scrapy_boilerplate._scrapy import runner as runner_module
        from scrapy_boilerplate._scrapy.process_pool import ProcessPool

        pool = runner_module._CRAWL_RUNNERS[self.crawler]._pool
        self.workers_started_at_opening = isinstance(pool, ProcessPool) and (
            pool._early is not None or bool(pool._workers)
        )


@deferred_f_from_coro_f
async def test_the_addon_starts_worker_processes_before_the_spider_opens(http_server, crawl):
    """Scrapy sets a crawl up in about the time a worker takes to start, so the first
    pages need not wait; the middleware uses the workers the add-on started."""
    from scrapy_boilerplate._scrapy import runner as runner_module
    from scrapy_boilerplate.middlewares import BoilerplateDownloaderMiddleware

    urls = [http_server.route(f"/{i}.html", article_page(f"early {i}")) for i in range(3)]
    settings = {**ADDON_SETTINGS, "BOILERPLATE_EXECUTOR": "process", "BOILERPLATE_WORKERS": 1}
    items, crawler = await crawl(RecordsTheWorkersAtOpening, settings, start_urls=urls)
    assert crawler.spider.workers_started_at_opening
    assert all("The story about early" in i["result"]["text"] for i in items)
    (middleware,) = [
        m
        for m in crawler.engine.downloader.middleware.middlewares
        if isinstance(m, BoilerplateDownloaderMiddleware)
    ]
    assert middleware.runner is runner_module._CRAWL_RUNNERS[crawler]
    assert middleware.runner._pool is None  # closed with the crawl


def test_a_crawl_has_one_runner_for_all_its_components():
    from scrapy.utils.test import get_crawler

    from scrapy_boilerplate._scrapy.runner import crawl_runner

    crawler = get_crawler(scrapy.Spider)
    runner = crawl_runner(crawler, 2, "thread")
    assert crawl_runner(crawler, 2, "thread") is runner
    assert crawl_runner(get_crawler(scrapy.Spider), 2, "thread") is not runner
    other = crawl_runner(crawler, 1, "process")  # settings changed: a new runner
    assert other is not runner and crawl_runner(crawler, 1, "process") is other


@pytest.mark.parametrize(
    ("headers", "body"),
    [
        ({"Content-Type": "text/html; charset=utf-8"}, "<p>café</p>".encode()),
        ({"Content-Type": "text/html; charset=latin-1"}, "<p>café</p>".encode("latin-1")),
        ({"Content-Type": "text/html"}, "<meta charset=cp1251><p>страница</p>".encode("cp1251")),
        ({"Content-Type": "text/html"}, "\ufeff<p>utf-16 with a BOM</p>".encode("utf-16-le")),
        ({}, "<p>no declaration: détectée</p>".encode()),
        ({"Content-Type": "text/html; charset=ascii"}, "<p>declared wrong: é</p>".encode()),
        ({"Content-Type": "text/html; charset=no-such-codec"}, b"<p>bad name \xe9</p>"),
        ({"Content-Type": "text/html"}, b"<p>broken utf-8 \xff\xfe\xc3</p>"),
    ],
)
def test_a_worker_decodes_the_body_as_scrapy_does(headers, body):
    from scrapy.http import HtmlResponse

    from scrapy_boilerplate._scrapy.worker import EncodedPage

    response = HtmlResponse("https://example.com/", headers=headers, body=body)
    page = EncodedPage(response.body, response.encoding)
    assert page.decode() == response.text


@deferred_f_from_coro_f
async def test_worker_processes_fork_from_a_server_that_loaded_the_engine_once():
    import multiprocessing
    import os

    from scrapy_boilerplate._scrapy.runner import ExtractionRunner

    runner = ExtractionRunner(2, "process")
    try:
        worker_parents = {await runner.run(os.getppid) for _ in range(4)}
        worker_pids = {await runner.run(os.getpid) for _ in range(4)}
    finally:
        runner.close()
    assert os.getpid() not in worker_pids
    if "forkserver" in multiprocessing.get_all_start_methods():
        # not children of the crawl (whose threads make fork unsafe): of the fork server
        assert worker_parents.isdisjoint({os.getpid()})


@pytest.mark.parametrize("asyncio_loop", [True, False])
@deferred_f_from_coro_f
async def test_worker_processes_under_asyncio_and_other_reactors(monkeypatch, asyncio_loop):
    """Under asyncio the event loop reads the workers' sockets; under other reactors a
    standard ProcessPoolExecutor is awaited from a thread. Both answer the same."""
    import os
    from concurrent.futures import ProcessPoolExecutor

    from scrapy_boilerplate._scrapy import runner as runner_module
    from scrapy_boilerplate._scrapy.process_pool import ProcessPool

    monkeypatch.setattr(runner_module, "asyncio_available", lambda: asyncio_loop)
    runner = runner_module.ExtractionRunner(1, "process")
    try:
        pids = {await runner.run(os.getpid) for _ in range(3)}
        assert isinstance(runner._pool, ProcessPool if asyncio_loop else ProcessPoolExecutor)
    finally:
        runner.close()
    assert len(pids) == 1 and os.getpid() not in pids


class Unpicklable(Filter):
    name = "unpicklable"

    def __init__(self):
        self.check = lambda doc: False

    def __call__(self, doc):
        return self.check(doc)


def test_process_executor_needs_a_picklable_chain():
    from scrapy.settings import Settings

    from scrapy_boilerplate.settings import BoilerplateSettingError, load_config

    settings = Settings(
        {"BOILERPLATE_EXECUTOR": "process", "BOILERPLATE_EXTRACTOR": ["article", Unpicklable()]}
    )
    with pytest.raises(BoilerplateSettingError, match="must pickle"):
        load_config(settings)
    settings.set("BOILERPLATE_EXECUTOR", "thread")
    assert load_config(settings).executor == "thread"


@deferred_f_from_coro_f
async def test_empty_results_leave_the_text_field_unset(http_server, crawl):
    """So that field coverage (e.g. Spidermon's) measures extraction success."""
    empty = http_server.route(
        "/empty.html", "<html><head><title>Only a title</title></head></html>"
    )
    image = http_server.route("/i.png", b"\x89PNG", content_type="image/png")
    good = http_server.route("/good.html", article_page("the harbour market"))
    items, _ = await crawl(AllItemsSpider, ADDON_SETTINGS, start_urls=[empty, image, good])
    dicts = {i["url"]: i for i in items if isinstance(i, dict)}
    assert dicts[empty] == {"url": empty, "title": "Only a title"}
    assert dicts[image] == {"url": image}  # skipped: untouched
    assert "harbour market" in dicts[good]["main_text"]
    data = {i.url: i for i in items if isinstance(i, ArticleData)}
    assert data[empty].main_text is None and data[empty].title == "Only a title"


def test_worker_processes_get_each_extractor_pickled_once():
    """The crawl pickles an extractor once, not with every page, and a worker unpickles
    that pickle once: the hand-off per page is the page alone."""
    import pickle

    from scrapy_boilerplate import get_extractor
    from scrapy_boilerplate._scrapy.runner import ExtractionRunner
    from scrapy_boilerplate._scrapy.worker import _UNPICKLED, extract_pickled, extract_to_dict

    runner = ExtractionRunner(1, "process")
    article, default = get_extractor("article"), get_extractor("default")
    pickled = runner._pickle_of(article)
    assert runner._pickle_of(article) is pickled
    assert runner._pickle_of(default) is not pickled
    assert pickle.loads(pickled).name == "article"

    page = article_page("pickled once")
    first = extract_pickled(pickled, page, "https://example.com/")
    unpickled = _UNPICKLED[pickled]
    second = extract_pickled(bytes(pickled), page, "https://example.com/")  # equal bytes
    assert _UNPICKLED[pickled] is unpickled
    expected = extract_to_dict(article, page, "https://example.com/")
    for result in (first, second):
        assert result["text"] == expected["text"] and "pickled once" in result["text"]
