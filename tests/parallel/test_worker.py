"""The worker side (``parallel/worker.py``): a worker decodes a page's bytes as Scrapy does
(in worker processes of a crawl, and on its own), and unpickles each extractor once."""

from __future__ import annotations

import pytest
from scrapy.utils.defer import deferred_f_from_coro_f

from ..scrapy.helpers import ADDON_SETTINGS, OneItemSpider, article_page


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

    from scrapy_boilerplate.parallel.worker import EncodedPage

    response = HtmlResponse("https://example.com/", headers=headers, body=body)
    page = EncodedPage(response.body, response.encoding)
    assert page.decode() == response.text


def test_worker_processes_get_each_extractor_pickled_once():
    """The crawl pickles an extractor once, not with every page, and a worker unpickles
    that pickle once: the hand-off per page is the page alone."""
    import pickle

    from scrapy_boilerplate import get_extractor
    from scrapy_boilerplate._scrapy.runner import ExtractionRunner
    from scrapy_boilerplate.parallel.worker import _UNPICKLED, extract_pickled, extract_to_dict

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


def test_a_batch_call_gives_each_page_its_result_or_its_exception():
    import pickle

    from scrapy_boilerplate import get_extractor
    from scrapy_boilerplate.parallel.worker import HttpBody, extract_pickled_many

    pickled = pickle.dumps(get_extractor("article"))
    cyrillic = article_page("Ярославль").encode("cp1251")
    results = extract_pickled_many(
        pickled,
        [
            (article_page("the first page"), "https://example.com/1"),
            (HttpBody(cyrillic, "text/html; charset=windows-1251"), "https://example.com/2"),
            (12345, "https://example.com/3"),  # neither text nor bytes: TypeError
        ],
    )
    assert "the first page" in results[0]["text"]
    assert "Ярославль" in results[1]["text"]  # the header's charset decoded it
    assert isinstance(results[2], TypeError)
