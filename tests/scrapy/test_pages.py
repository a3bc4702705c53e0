"""The scrapy-poet page object: ``page: BoilerplateArticlePage`` in a callback gives a
zyte-common-items Article, in a real crawl with scrapy-poet's add-on; web-poet rules
override it per site."""

from __future__ import annotations

import attrs
import pytest
import scrapy
import zyte_common_items
from scrapy.utils.defer import deferred_f_from_coro_f
from web_poet import ApplyRule, field

from scrapy_boilerplate.pages import BoilerplateArticlePage

from .helpers import BASE_SETTINGS, article_page
from .test_zyte_presets import page_with_declarations

POET = {"ADDONS": {"scrapy_poet.Addon": 300}}


class ArticleSpider(scrapy.Spider):
    name = "articles"

    async def parse(self, response, page: BoilerplateArticlePage):
        yield await page.to_item()


@attrs.define
class ShoutingPage(BoilerplateArticlePage):
    """A site's own page object: one field by hand, another extractor."""

    extractor = "keep_everything"

    @field
    def headline(self) -> str | None:
        return "SITE HEADLINE"


@deferred_f_from_coro_f
async def test_a_callback_gets_an_article_from_the_page_object(http_server, crawl):
    url = http_server.route("/news/market.html", page_with_declarations())
    items, _ = await crawl(ArticleSpider, {**BASE_SETTINGS, **POET}, start_urls=[url])
    (article,) = items
    assert isinstance(article, zyte_common_items.Article)
    assert article.url == url
    assert article.headline == "The harbour market opens late"
    assert "began early on Tuesday" in article.articleBody
    assert "<p>" in article.articleBodyHtml
    assert article.authors[0].name == "Ann Lee"
    assert article.datePublished == "2026-03-04T05:06:07+01:00"


@deferred_f_from_coro_f
async def test_web_poet_rules_override_the_page_object_per_site(http_server, crawl):
    url = http_server.route("/other.html", article_page("the old bridge"))
    site = f"127.0.0.1:{http_server.port}"  # url-matcher patterns name the port
    rules = [ApplyRule(site, use=ShoutingPage, instead_of=BoilerplateArticlePage)]
    settings = {**BASE_SETTINGS, **POET, "SCRAPY_POET_RULES": rules}
    items, _ = await crawl(ArticleSpider, settings, start_urls=[url])
    (article,) = items
    assert article.headline == "SITE HEADLINE"
    assert "Contact" in article.articleBody  # keep_everything keeps the footer too


@attrs.define
class HurriedPage(BoilerplateArticlePage):
    """A page object whose extraction always runs out of time."""

    timeout = 1e-9


def test_the_metadata_says_whether_the_page_holds_an_article():
    from web_poet import HttpResponse

    def metadata(body: bytes, page_class=BoilerplateArticlePage):
        page = page_class(response=HttpResponse("https://news.example/a", body=body))
        return page.metadata

    article = metadata(article_page("the old bridge").encode())
    assert article.probability == 1.0 and article.dateDownloaded  # the base class's date
    # what zyte-common-items' no_item_found() says: this URL holds no article
    for body in (b"", b"\x00\x01\x02\xff" * 50, b"<html><body><nav><a href='/'>Home</a></nav>"):
        assert metadata(body).probability == 0.0
    # out of time: not read to the end, so nothing is known either way
    assert metadata(article_page("the old bridge").encode(), HurriedPage).probability is None


# (zyte-common-items' pipeline still takes the spider argument that Scrapy 2.13+ deprecates)
@pytest.mark.filterwarnings(
    "ignore:DropLowProbabilityItemPipeline:scrapy.exceptions.ScrapyDeprecationWarning"
)
@deferred_f_from_coro_f
async def test_zyte_s_low_probability_pipeline_drops_the_pages_without_an_article(
    http_server, crawl
):
    story = http_server.route("/news/bridge.html", article_page("the old bridge"))
    menu = http_server.route("/menu.html", "<html><body><nav><a href='/'>Home</a></nav>")
    settings = {
        **BASE_SETTINGS,
        **POET,
        "ITEM_PIPELINES": {"zyte_common_items.pipelines.DropLowProbabilityItemPipeline": 0},
    }
    items, crawler = await crawl(ArticleSpider, settings, start_urls=[story, menu])
    assert [item.url for item in items] == [story]
    assert crawler.stats.get_value("drop_low_probability_item/dropped") == 1


def test_a_page_class_may_share_a_site_memory_and_reads_each_page_alone_by_default():
    from web_poet import HttpResponse

    from scrapy_boilerplate import SiteMemory

    from .test_site_memory import SIDEBAR, KeepAllButAMarkedSidebar, site_pages_html

    @attrs.define
    class Remembering(BoilerplateArticlePage):
        extractor = [KeepAllButAMarkedSidebar()]
        site_memory = SiteMemory()

    @attrs.define
    class Alone(BoilerplateArticlePage):
        extractor = [KeepAllButAMarkedSidebar()]

    def bodies(page_class):
        out = []
        for n, html in enumerate(site_pages_html()):
            response = HttpResponse(f"https://blog.example/{n}", body=html.encode())
            out.append(page_class(response=response).articleBody)
        return out

    remembered, alone = bodies(Remembering), bodies(Alone)
    assert SIDEBAR not in remembered[0] and SIDEBAR not in remembered[1]
    assert SIDEBAR in alone[1]
    assert BoilerplateArticlePage.site_memory is None
