"""The middlewares in real crawls against a local server: every item type, configuration
levels (project, spider, domain, request), a site with bad pages, a broken setting."""

from __future__ import annotations

import dataclasses
import logging

import attr
import pytest
import scrapy
from scrapy.exceptions import ScrapyDeprecationWarning
from scrapy.utils.defer import deferred_f_from_coro_f

from scrapy_boilerplate.filters import Filter
from scrapy_boilerplate.registry import DEFAULT_EXTRACTOR

from .helpers import ADDON_SETTINGS, OneItemSpider, article_page


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
    assert result["extractor"] == DEFAULT_EXTRACTOR
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


@pytest.mark.parametrize(
    ("output_format", "executor", "expected"),
    [
        ("markdown", "thread", "# News about the harbour market"),
        ("html", "process", "<h1>News about the harbour market</h1>"),
    ],
)
@deferred_f_from_coro_f
async def test_markdown_and_html_output_formats(
    http_server, crawl, output_format, executor, expected
):
    url = http_server.route("/a.html", article_page("the harbour market"))
    settings = {
        **ADDON_SETTINGS,
        "BOILERPLATE_OUTPUT_FORMAT": output_format,
        "BOILERPLATE_EXECUTOR": executor,
        "BOILERPLATE_WORKERS": 1,
    }
    items, _ = await crawl(AllItemsSpider, settings, start_urls=[url])
    item = next(i for i in items if isinstance(i, dict))
    assert expected in item["main_text"]
    assert "began early on Tuesday" in item["main_text"]


@pytest.mark.parametrize("executor", ["thread", "process"])
@pytest.mark.parametrize("where", ["meta", "header"])
@pytest.mark.parametrize(
    ("codec", "words"),
    [
        ("rot13", "caf\u00e9 cr\u00e8me"),
        ("punycode", "the harbour market"),
        ("utf-16", "the harbour market"),  # ASCII bytes: decoded as declared, CJK noise
    ],
)
@deferred_f_from_coro_f
async def test_a_page_naming_a_codec_that_cannot_decode_it_keeps_its_text(
    http_server, crawl, executor, where, codec, words
):
    # Scrapy's response.text raises LookupError on rot13: the item lost its main text
    # (Scrapy's own MetaRefreshMiddleware reads response.text too, and drops the
    # response). On an ASCII page, punycode gives "" and no error, and is quadratic in
    # the text after the page's last "-" (1.2 s for 80 KB): the bytes go to the engine
    page = article_page(words).replace("<head>", f'<head><meta charset="{codec}">')
    content_type = f"text/html; charset={codec}" if where == "header" else "text/html"
    url = http_server.route(f"/{codec}.html", page.encode("utf-8"), content_type=content_type)
    settings = {
        **ADDON_SETTINGS,
        "BOILERPLATE_EXECUTOR": executor,
        "BOILERPLATE_WORKERS": 1,
    }
    items, crawler = await crawl(ReadingSpider, settings, start_urls=[url])
    assert words in items[0]["result"]["text"]
    assert crawler.stats.get_value("boilerplate/extracted_count") == 1
    # the spider and Scrapy's MetaRefreshMiddleware read the response too: it decodes in
    # the encoding the engine detects (before, rot13 raised in both, and the middleware
    # dropped the response)
    assert words in items[0]["paragraph"]
    assert crawler.stats.get_value("boilerplate/encoding_replaced") == 1


class ReadingSpider(OneItemSpider):
    """Reads the response's text, as a spider's callback does."""

    def parse(self, response):
        for item in super().parse(response):
            yield {**item, "paragraph": " ".join(response.css("p::text").getall())}


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


# -- configuration levels ----------------------------------------------------------------------
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
async def test_a_sites_selector_from_the_settings_and_not_from_meta(http_server, crawl):
    related = "<div class='related'><p>Read also: the council's budget for next year.</p></div>"
    url = http_server.route("/a.html", article_page("the harbour market", related))
    other = http_server.route("/b.html", article_page("the old bridge", related))
    selector = {"selector": {"css": ".related"}}
    settings = {
        **ADDON_SETTINGS,
        "BOILERPLATE_DOMAIN_EXTRACTORS": {"127.0.0.1": ["keep_everything", selector]},
    }
    items, crawler = await crawl(
        OneItemSpider,
        settings,
        start_urls=[url, other],
        meta_for={other: {"boilerplate": {"extractor": ["keep_everything", selector]}}},
    )
    by_url = {i["url"]: i["result"] for i in items}
    assert "harbour market" in by_url[url]["text"] and "Read also" not in by_url[url]["text"]
    # a request's meta may not bring a selector
    assert by_url[other]["reason"] == "error" and "'css' is not allowed" in by_url[other]["error"]
    assert crawler.stats.get_value("boilerplate/error_count/ChainSpecError") == 1


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
    assert by_url[default]["extractor"] == DEFAULT_EXTRACTOR
    assert by_url[keep]["extractor"] == "keep_everything"
    assert by_url[off]["reason"] == "disabled" and by_url[off]["text"] == ""
    assert by_url[copied]["extractor"] == "keep_everything"
    assert "town hall" in by_url[copied]["text"]
    assert crawler.stats.get_value("boilerplate/skipped/disabled") == 1
    assert crawler.stats.get_value("boilerplate/extracted_count") == 3


@pytest.mark.parametrize(
    "spec, said",
    [
        (["no_such_filter"], "no_such_filter"),
        # JSON deeper than the interpreter's stack (it raised RecursionError)
        ("[" * 100_000 + "]" * 100_000, "nested too deeply"),
    ],
    ids=["unknown-filter", "deep-json"],
)
@deferred_f_from_coro_f
async def test_bad_per_request_spec_fails_that_page_only(http_server, crawl, caplog, spec, said):
    bad = http_server.route("/bad.html", article_page("the harbour market"))
    good = http_server.route("/good.html", article_page("the old bridge"))
    caplog.set_level(logging.WARNING)
    items, crawler = await crawl(
        OneItemSpider,
        ADDON_SETTINGS,
        start_urls=[bad, good],
        meta_for={bad: {"boilerplate": {"extractor": spec}}},
    )
    by_url = {i["url"]: i["result"] for i in items}
    assert by_url[bad]["reason"] == "error" and said in by_url[bad]["error"]
    assert len(by_url[bad]["error"]) < 1000
    assert "old bridge" in by_url[good]["text"]
    assert crawler.stats.get_value("boilerplate/error_count/ChainSpecError") == 1
    assert caplog.text.count("Bad meta") == 1


@pytest.mark.parametrize("executor", ["thread", "process"])
@deferred_f_from_coro_f
async def test_a_request_can_ask_for_the_annotated_view_with_its_result(
    http_server, crawl, executor
):
    # the view comes from the same, traced, extraction as the text (also from a worker
    # process: it is a string, the tree stays in the worker)
    viewed = http_server.route("/viewed.html", article_page("the harbour market"))
    plain = http_server.route("/plain.html", article_page("the old bridge"))
    items, _ = await crawl(
        OneItemSpider,
        {**ADDON_SETTINGS, "BOILERPLATE_EXECUTOR": executor, "BOILERPLATE_WORKERS": 1},
        start_urls=[viewed, plain],
        meta_for={viewed: {"boilerplate": {"annotated": True}}},
    )
    by_url = {i["url"]: i["result"] for i in items}
    view = by_url[viewed]["annotated"]
    assert view.startswith("<!DOCTYPE html>") and "sb-content" in view
    assert "harbour market" in view and "decided by" in view  # traced: filters named
    assert "The story about the harbour market" in by_url[viewed]["text"]
    assert "annotated" not in by_url[plain]  # only when asked for


@deferred_f_from_coro_f
async def test_a_bad_annotated_value_fails_that_page_only(http_server, crawl):
    bad = http_server.route("/bad.html", article_page("the harbour market"))
    items, crawler = await crawl(
        OneItemSpider,
        ADDON_SETTINGS,
        start_urls=[bad],
        meta_for={bad: {"boilerplate": {"annotated": "yes"}}},
    )
    (result,) = [i["result"] for i in items]
    assert result["reason"] == "error" and "annotated must be True or False" in result["error"]
    assert crawler.stats.get_value("boilerplate/error_count/ValueError") == 1


@deferred_f_from_coro_f
async def test_unknown_meta_keys_are_logged_once_per_crawl(http_server, crawl, caplog):
    # a request's meta may come from outside data: a warning per set of keys grew the
    # crawl's memory and its log without bound
    urls = [http_server.route(f"/{i}.html", article_page(f"story {i}")) for i in range(4)]
    meta_for = {url: {"boilerplate": {f"typo_{i}": 1, 7: "x"}} for i, url in enumerate(urls)}
    caplog.set_level(logging.WARNING)
    items, crawler = await crawl(OneItemSpider, ADDON_SETTINGS, start_urls=urls, meta_for=meta_for)
    assert all(item["result"]["text"] for item in items)  # the known keys still apply
    assert caplog.text.count("Ignoring unknown keys") == 1
    assert crawler.stats.get_value("boilerplate/extracted_count") == 4


def test_one_crawl_logs_a_bounded_number_of_kinds_of_message(caplog):
    from scrapy_boilerplate._scrapy.log import MAX_KINDS, OnceLogger

    once = OnceLogger(logging.getLogger("boilerplate-test"), crawler=None)
    caplog.set_level(logging.WARNING)
    logged = sum(once(("kind", i), logging.WARNING, "kind %s", i) for i in range(MAX_KINDS + 50))
    assert logged == MAX_KINDS and caplog.text.count("kind ") == MAX_KINDS


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


@deferred_f_from_coro_f
async def test_specs_in_meta_import_only_what_a_setting_allows(
    http_server, crawl, tmp_path, monkeypatch
):
    """Meta may be built from outside data (a queue, a database): its specs may name
    registered filters, and import paths only under BOILERPLATE_ALLOWED_IMPORTS."""
    monkeypatch.chdir(tmp_path)
    hostile = http_server.route("/hostile.html", article_page("the harbour market"))
    own = http_server.route("/own.html", article_page("the old bridge"))
    named = http_server.route("/named.html", article_page("the new school"))
    meta_for = {
        hostile: {"boilerplate": {"extractor": [{"subprocess.Popen": {"args": ["touch", "m"]}}]}},
        own: {"boilerplate": {"extractor": ["article", "tests.helpers.DropShortBlocks"]}},
        named: {"boilerplate": {"extractor": ["keep_everything"]}},
    }
    urls = [hostile, own, named]
    items, crawler = await crawl(OneItemSpider, ADDON_SETTINGS, start_urls=urls, meta_for=meta_for)
    by_url = {i["url"]: i["result"] for i in items}
    assert "import paths are not allowed here" in by_url[hostile]["error"]
    assert "import paths are not allowed here" in by_url[own]["error"]
    assert "Privacy" in by_url[named]["text"]
    assert crawler.stats.get_value("boilerplate/error_count/ChainSpecError") == 2
    assert not (tmp_path / "m").exists()

    settings = {**ADDON_SETTINGS, "BOILERPLATE_ALLOWED_IMPORTS": ["tests.helpers"]}
    items, _ = await crawl(OneItemSpider, settings, start_urls=urls, meta_for=meta_for)
    by_url = {i["url"]: i["result"] for i in items}
    assert "The story about the old bridge" in by_url[own]["text"]
    assert "not allowed here (only under tests.helpers)" in by_url[hostile]["error"]
    assert not (tmp_path / "m").exists()


@deferred_f_from_coro_f
async def test_a_site_of_hostile_pages_with_every_output_on(http_server, crawl):
    # pages that once crashed or stalled the Markdown, HTML and metadata outputs: each
    # still gives its item, with its fields, and no extraction error
    paragraph = "<p>" + "storm words here " * 20 + "</p>"
    routes = {
        "/quotes.html": "<html><body>" + "<blockquote>" * 1500 + paragraph,
        "/bold.html": "<html><body><p>" + "<b>" * 1500 + "storm words here " * 20,
        "/authors.html": "<html><body>" + "<div itemprop='author'>" * 1500 + paragraph,
        "/spaces.html": "<html><body><p>storm words " + "&nbsp;&amp;" * 100_000 + "</p>",
        "/breaks.html": "<html><body><p>" + "storm words<br>" * 20_000 + "</p>",
        "/control.html": f"<html><body>{paragraph}<p>a \x01 b <img src='x.png' alt='a\x02'></p>",
    }
    urls = [http_server.route(path, body) for path, body in routes.items()]
    fields = {"md": "markdown", "clean_html": "html", "meta": "metadata", "thread": "comments"}
    settings = {**ADDON_SETTINGS, "BOILERPLATE_FIELDS": fields}
    items, crawler = await crawl(OneItemSpider, settings, start_urls=urls)

    assert len(items) == len(urls)
    for item in items:
        assert item["result"]["error"] is None
        if item["result"]["text"]:  # (the page of spaces may have no content)
            assert "storm words" in item["md"]
            assert "storm words" in item["clean_html"]
    assert sum("md" in item for item in items) >= len(urls) - 1
    stats = crawler.stats.get_stats()
    assert not any(key.startswith("boilerplate/error_count") for key in stats)
