"""The zyte presets: items that build real zyte-common-items ``Article`` and
``PageContent`` objects, with the article's own headline, HTML body, dates and authors."""

from __future__ import annotations

import json

import pytest
import scrapy
import zyte_common_items
from scrapy.utils.defer import deferred_f_from_coro_f

from .helpers import ADDON_SETTINGS, article_page

JSON_LD = {
    "@context": "https://schema.org",
    "@type": "NewsArticle",
    "headline": "The harbour market opens late",
    "author": [{"@type": "Person", "name": "Ann Lee"}],
    "datePublished": "2026-03-04T05:06:07+01:00",
    "dateModified": "2026-03-05T08:00:00Z",
    "image": "/img/market.jpg",
    "description": "Traders waited for new permits.",
}


def page_with_declarations() -> str:
    html = article_page("the harbour market", title="Harbour market | The Daily")
    head = (
        f'<script type="application/ld+json">{json.dumps(JSON_LD)}</script>'
        '<link rel="canonical" href="/news/market">'
    )
    html = html.replace("<h1>Harbour market | The Daily</h1>", f"<h1>{JSON_LD['headline']}</h1>")
    return html.replace("<html>", '<html lang="en-GB">').replace("</head>", head + "</head>")


class UrlSpider(scrapy.Spider):
    name = "urls"

    def parse(self, response):
        yield {"url": response.url}


@deferred_f_from_coro_f
async def test_the_zyte_preset_fills_an_article(http_server, crawl):
    url = http_server.route("/news/market.html", page_with_declarations())
    settings = {**ADDON_SETTINGS, "BOILERPLATE_ITEM_PRESET": "zyte"}
    items, _ = await crawl(UrlSpider, settings, start_urls=[url])
    article = zyte_common_items.Article.from_dict(items[0])
    assert article.headline == "The harbour market opens late"  # not the <title>
    assert "began early on Tuesday" in article.articleBody
    assert article.articleBodyHtml.startswith("<div>") and "<p>" in article.articleBodyHtml
    assert article.datePublished == "2026-03-04T05:06:07+01:00"
    assert article.dateModified == "2026-03-05T08:00:00+00:00"
    assert [a.name for a in article.authors] == ["Ann Lee"]
    assert isinstance(article.mainImage, zyte_common_items.Image)
    assert article.mainImage.url == http_server.url("/img/market.jpg")
    assert article.canonicalUrl == http_server.url("/news/market")
    assert article.inLanguage == "en"
    assert article.description == "Traders waited for new permits."


@deferred_f_from_coro_f
async def test_the_page_content_preset(http_server, crawl):
    url = http_server.route("/news/market.html", page_with_declarations())
    settings = {**ADDON_SETTINGS, "BOILERPLATE_ITEM_PRESET": "zyte_page_content"}
    items, _ = await crawl(UrlSpider, settings, start_urls=[url])
    content = zyte_common_items.PageContent.from_dict(items[0])
    assert "began early on Tuesday" in content.itemMain
    assert content.title == "Harbour market | The Daily"
    assert content.headline == "The harbour market opens late"
    assert content.metadata.probability == 1.0


@pytest.mark.parametrize("executor", ["process"])
@deferred_f_from_coro_f
async def test_the_zyte_preset_in_worker_processes(http_server, crawl, executor):
    url = http_server.route("/news/market.html", page_with_declarations())
    settings = {
        **ADDON_SETTINGS,
        "BOILERPLATE_ITEM_PRESET": "zyte",
        "BOILERPLATE_EXECUTOR": executor,
        "BOILERPLATE_WORKERS": 1,
    }
    items, _ = await crawl(UrlSpider, settings, start_urls=[url])
    article = zyte_common_items.Article.from_dict(items[0])
    assert article.headline == "The harbour market opens late"
    assert article.authors[0].name == "Ann Lee"


@deferred_f_from_coro_f
async def test_boilerplate_fields_put_chosen_results_on_items(http_server, crawl):
    url = http_server.route("/news/market.html", page_with_declarations())
    settings = {
        **ADDON_SETTINGS,
        "BOILERPLATE_EXTRACTOR": "article",  # keeps the headline in the body: a "# " line
        "BOILERPLATE_FIELDS": {
            "body_markdown": "markdown",
            "published": "metadata.datePublished",
            "authors": "metadata.authors",
            "updated": "metadata.keywords",  # not declared: left unset
        },
    }
    items, _ = await crawl(UrlSpider, settings, start_urls=[url])
    (item,) = items
    assert "began early on Tuesday" in item["main_text"]  # the default fields stay
    assert item["body_markdown"].startswith("# ") or "\n# " in item["body_markdown"]
    assert item["published"] == "2026-03-04T05:06:07+01:00"
    assert item["authors"] == [{"name": "Ann Lee"}]
    assert "updated" not in item


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ({"x": "metadata.colour"}, "is not a source"),
        ({"x": "pdf"}, "is not a source"),
        (["markdown"], "must map item fields to sources"),
    ],
)
def test_a_wrong_boilerplate_fields_entry_is_named(value, message):
    from scrapy.settings import Settings

    from scrapy_boilerplate.settings import BoilerplateSettingError, load_config

    with pytest.raises(BoilerplateSettingError, match=message):
        load_config(Settings({"BOILERPLATE_FIELDS": value}))


@deferred_f_from_coro_f
async def test_boilerplate_fields_can_carry_the_readers_comments(http_server, crawl):
    thread = (
        '<div id="comments"><ol class="commentlist"><li class="comment"><p>Ann: the '
        "market stalls were still empty at noon, and the traders were angry about it.</p>"
        '<a href="#r">Reply</a></li></ol></div>'
    )
    html = article_page("the harbour market").replace("</body>", thread + "</body>")
    url = http_server.route("/news/thread.html", html)
    settings = {**ADDON_SETTINGS, "BOILERPLATE_FIELDS": {"reader_comments": "comments"}}
    items, _ = await crawl(UrlSpider, settings, start_urls=[url])
    (item,) = items
    assert item["reader_comments"].startswith("Ann: the market stalls")
    assert "Reply" not in item["reader_comments"]


@deferred_f_from_coro_f
async def test_the_zyte_preset_says_whether_the_page_holds_an_article(http_server, crawl):
    story = http_server.route("/news/market.html", page_with_declarations())
    menu = http_server.route("/menu.html", "<html><body><nav><a href='/'>Home</a></nav>")
    settings = {**ADDON_SETTINGS, "BOILERPLATE_ITEM_PRESET": "zyte"}
    items, _ = await crawl(UrlSpider, settings, start_urls=[story, menu])
    by_url = {item["url"]: zyte_common_items.Article.from_dict(item) for item in items}
    assert by_url[story].metadata.probability == 1.0
    assert by_url[menu].metadata.probability == 0.0  # no_item_found()'s convention
    assert by_url[menu].articleBody is None


class ZyteItemSpider(scrapy.Spider):
    """Yields zyte-common-items objects (``item_class``, a spider argument) for the preset
    to fill."""

    name = "zyte_items"
    item_class = zyte_common_items.Article

    def parse(self, response):
        yield self.item_class(url=response.url)


# (zyte-common-items' pipeline still takes the spider argument that Scrapy 2.13+ deprecates)
@pytest.mark.filterwarnings(
    "ignore:DropLowProbabilityItemPipeline:scrapy.exceptions.ScrapyDeprecationWarning"
)
@pytest.mark.parametrize(
    ("preset", "item_class", "metadata_class"),
    [
        ("zyte", zyte_common_items.Article, zyte_common_items.ArticleMetadata),
        (
            "zyte_page_content",
            zyte_common_items.PageContent,
            zyte_common_items.PageContentMetadata,
        ),
    ],
)
@deferred_f_from_coro_f
async def test_zyte_s_low_probability_pipeline_drops_preset_items_of_pages_without_content(
    http_server, crawl, preset, item_class, metadata_class
):
    story = http_server.route("/news/market.html", page_with_declarations())
    menu = http_server.route("/menu.html", "<html><body><nav><a href='/'>Home</a></nav>")
    settings = {
        **ADDON_SETTINGS,
        "BOILERPLATE_ITEM_PRESET": preset,
        # (the plugin's spider middleware fills the items before any item pipeline)
        "ITEM_PIPELINES": {"zyte_common_items.pipelines.DropLowProbabilityItemPipeline": 900},
    }
    items, crawler = await crawl(
        ZyteItemSpider, settings, start_urls=[story, menu], item_class=item_class
    )
    assert [item.url for item in items] == [story]
    assert isinstance(items[0].metadata, metadata_class)
    assert items[0].metadata.probability == 1.0
    assert crawler.stats.get_value("drop_low_probability_item/dropped") == 1


@deferred_f_from_coro_f
async def test_the_zyte_preset_gives_article_objects_their_own_author_and_image_types(
    http_server, crawl
):
    # itemadapter sets a dict as it is; an Article declares Author and Image objects,
    # the same that Article.from_dict makes of a dict item's fields
    url = http_server.route("/news/market.html", page_with_declarations())
    settings = {**ADDON_SETTINGS, "BOILERPLATE_ITEM_PRESET": "zyte"}
    (article,), _ = await crawl(ZyteItemSpider, settings, start_urls=[url])
    (author,) = article.authors
    assert isinstance(author, zyte_common_items.Author)
    assert (author.name, author.nameRaw) == ("Ann Lee", "Ann Lee")
    assert isinstance(article.mainImage, zyte_common_items.Image)
    assert article.mainImage.url == http_server.url("/img/market.jpg")
    (as_dict,), _ = await crawl(UrlSpider, settings, start_urls=[url])
    from_dict = zyte_common_items.Article.from_dict(as_dict)
    assert (article.authors, article.mainImage) == (from_dict.authors, from_dict.mainImage)


def test_values_stay_as_they_are_where_the_item_declares_no_such_type():
    from dataclasses import dataclass

    from scrapy_boilerplate._scrapy.items import as_declared

    @dataclass
    class Story:
        authors: list[dict] | None = None

    authors = [{"name": "Ann Lee"}]
    assert as_declared(Story, "authors", authors) is authors
    assert as_declared(dict, "authors", authors) is authors
    assert as_declared(zyte_common_items.Article, "headline", "A") == "A"
    # a value of another shape than declared is left to the item class to refuse
    assert as_declared(zyte_common_items.Article, "authors", "Ann Lee") == "Ann Lee"
