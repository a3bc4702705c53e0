"""Article metadata from what the page declares: JSON-LD first, then microdata,
OpenGraph / Dublin Core and meta tags; the publication date is htmldate's choice, kept
with the precision and source of a declaration on the same day. Missing values are
absent, never guessed."""

from __future__ import annotations

import json

import pytest

from scrapy_boilerplate import extract

from ..helpers import LINEAR_GROWTH_LIMIT, growth, run_cli_without

BODY = (
    "<body><article><h1>Storm hits the coast</h1><p>A powerful storm hit the northern "
    "coast on Tuesday night, bringing heavy rain and winds of more than a hundred "
    "kilometres an hour to several towns along the shore.</p></article></body>"
)


def page(head: str, body: str = BODY, lang: str = "en-GB") -> str:
    return f'<html lang="{lang}"><head><title>Storm | The Daily</title>{head}</head>{body}</html>'


def metadata(html: str, url: str = "https://daily.example/2026/storm") -> dict:
    return extract(html, url, metadata=True).metadata


JSON_LD = {
    "@context": "https://schema.org",
    "@graph": [
        {"@type": "WebSite", "name": "The Daily"},
        {
            "@type": "WebPage",
            "name": "Storm | The Daily",
            "url": "https://daily.example/2026/storm",
        },
        {
            "@type": "NewsArticle",
            "headline": "Storm hits the coast",
            "description": "Heavy rain and wind along the shore.",
            "author": [
                {"@type": "Person", "name": "Ann Lee"},
                {"@type": "Person", "name": "Bo Chen"},
            ],
            "datePublished": "2026-03-04T05:06:07+01:00",
            "dateModified": "2026-03-05T08:00:00Z",
            "image": {"@type": "ImageObject", "url": "/img/storm.jpg"},
            "inLanguage": "en-GB",
            "keywords": "storm, coast, weather",
            "publisher": {"@type": "Organization", "name": "Daily Media"},
        },
    ],
}


def test_json_ld_gives_the_article_fields_with_zyte_names_and_types():
    head = f'<script type="application/ld+json">{json.dumps(JSON_LD)}</script>'
    meta = metadata(page(head))
    assert meta["headline"] == "Storm hits the coast"  # the article's, not the page's name
    assert meta["authors"] == [{"name": "Ann Lee"}, {"name": "Bo Chen"}]
    assert meta["datePublished"] == "2026-03-04T05:06:07+01:00"
    assert meta["dateModified"] == "2026-03-05T08:00:00+00:00"
    assert meta["mainImage"] == {"url": "https://daily.example/img/storm.jpg"}
    assert meta["inLanguage"] == "en"
    assert meta["keywords"] == ["storm", "coast", "weather"]
    assert meta["siteName"] == "Daily Media"
    assert meta["sources"]["datePublished"] == "json-ld"


def test_opengraph_and_meta_tags_when_there_is_no_json_ld():
    head = (
        '<meta property="og:title" content="Storm hits the coast">'
        '<meta property="og:site_name" content="The Daily">'
        '<meta property="og:image" content="https://cdn.daily.example/storm.jpg">'
        '<meta property="article:published_time" content="2026-03-04">'
        '<meta name="author" content="By Ann Lee and Bo Chen">'
        '<meta name="description" content="Heavy rain and wind.">'
        '<link rel="canonical" href="/2026/storm">'
    )
    meta = metadata(page(head))
    assert meta["headline"] == "Storm hits the coast"
    assert meta["siteName"] == "The Daily"
    assert meta["datePublished"] == "2026-03-04"
    assert meta["authors"] == [{"name": "Ann Lee"}, {"name": "Bo Chen"}]
    assert meta["canonicalUrl"] == "https://daily.example/2026/storm"
    assert meta["sources"] == {
        "headline": "opengraph",
        "description": "meta",
        "authors": "meta",
        "datePublished": "opengraph",
        "inLanguage": "meta",
        "canonicalUrl": "meta",
        "siteName": "opengraph",
        "mainImage": "opengraph",
    }


def test_dublin_core_and_microdata():
    head = '<meta name="DC.creator" content="Ann Lee"><meta name="DC.date" content="2025-12-01">'
    body = (
        '<body><div itemscope itemtype="https://schema.org/Article">'
        '<h1 itemprop="headline">Storm hits the coast</h1>'
        '<time itemprop="datePublished" datetime="2026-01-02T03:04:05Z">2 Jan</time>'
        f"{BODY[6:-7]}</div></body>"
    )
    result = extract(page(head, body), "https://daily.example/2026/storm", metadata=True)
    meta = result.metadata
    assert meta["authors"] == [{"name": "Ann Lee"}]
    assert meta["headline"] == "Storm hits the coast"
    assert meta["sources"]["headline"] == "microdata"
    # extruct's Dublin Core reader writes to what it reads: it is given copies
    assert all("URI" not in meta_tag.attrib for meta_tag in result.document.root.iter("meta"))


def test_when_declared_dates_disagree_htmldate_chooses_and_the_declaration_keeps_its_time():
    # the CMS's JSON-LD says 2018 (the page's first version); the head's meta tag and
    # the page say 2025: htmldate reads the head first, as the page's readers see it
    json_ld = {"@type": "NewsArticle", "datePublished": "2018-04-03T09:00:00Z"}
    head = (
        f'<script type="application/ld+json">{json.dumps(json_ld)}</script>'
        '<meta property="article:published_time" content="2025-12-19T08:30:00+01:00">'
    )
    body = BODY.replace("<h1>", "<p>Updated 19 December 2025</p><h1>")
    meta = metadata(page(head, body), url="https://daily.example/gear/shoes")
    assert meta["datePublished"] == "2025-12-19T08:30:00+01:00"
    assert meta["sources"]["datePublished"] == "opengraph"


def test_a_date_only_declared_in_microdata_is_found():
    body = (
        '<body><div itemscope itemtype="https://schema.org/Article">'
        '<time itemprop="datePublished" datetime="2026-01-02T03:04:05Z">2 Jan</time>'
        f"{BODY[6:-7]}</div></body>"
    )
    meta = metadata(page("", body), url="https://daily.example/storm")
    assert meta["datePublished"] == "2026-01-02T03:04:05+00:00"
    assert meta["sources"]["datePublished"] == "microdata"


def test_htmldate_finds_an_undeclared_date_and_says_so():
    body = BODY.replace("<h1>", '<p class="date">Published 2024-11-05</p><h1>')
    meta = metadata(page("", body), url="https://daily.example/2024/11/05/storm")
    assert meta["datePublished"] == "2024-11-05"
    assert meta["sources"]["datePublished"] == "htmldate"


def test_what_is_not_declared_is_absent():
    meta = metadata(page("", lang=""))
    assert "authors" not in meta and "dateModified" not in meta and "mainImage" not in meta


def test_broken_declarations_give_nothing_rather_than_an_error():
    head = (
        '<script type="application/ld+json">{"@type": "NewsArticle", "headline": </script>'
        '<meta property="article:published_time" content="not a date">'
        '<meta property="og:image" content="javascript:alert(1)">'
        '<meta name="author" content="https://daily.example/staff/ann">'
    )
    meta = metadata(page(head, lang="not a language"))
    assert "datePublished" not in meta or meta["sources"]["datePublished"] == "htmldate"
    assert "mainImage" not in meta and "authors" not in meta and "inLanguage" not in meta


def test_json_ld_types_that_are_not_names_name_no_type():
    # a number, a boolean or a mapping as @type made the whole page's metadata raise
    odd = [{"@type": 183022}, {"@type": True, "headline": "x"}, {"@type": {"a": 1}}, [7, None]]
    head = "".join(
        f'<script type="application/ld+json">{json.dumps(value)}</script>'
        for value in (*odd, {"@type": ["NewsArticle", 3], "headline": "Storm hits the coast"})
    )
    meta = metadata(page(head))
    assert meta["headline"] == "Storm hits the coast"
    assert meta["sources"]["headline"] == "json-ld"


def test_metadata_off_by_default_and_in_the_result_dict_when_asked():
    html = page('<meta name="author" content="Ann Lee">')
    assert extract(html).metadata is None
    assert "metadata" not in extract(html).to_dict()
    assert extract(html, metadata=True).to_dict()["metadata"]["authors"] == [{"name": "Ann Lee"}]


def test_empty_and_binary_input_give_no_metadata():
    assert not extract("", metadata=True).metadata
    assert not extract(b"\x89PNG\r\n\x1a\n" + bytes(100), metadata=True).metadata


def test_the_command_line_json_carries_metadata_with_zyte_names(tmp_path, capsys):
    from scrapy_boilerplate.cli import main

    head = f'<script type="application/ld+json">{json.dumps(JSON_LD)}</script>'
    (tmp_path / "a.html").write_text(page(head), encoding="utf-8")
    for fmt in ("json", "jsonl"):
        assert main(["extract", "--format", fmt, str(tmp_path / "a.html")]) == 0
        doc = json.loads(capsys.readouterr().out)
        assert doc["metadata"]["headline"] == "Storm hits the coast"
        assert doc["metadata"]["datePublished"] == "2026-03-04T05:06:07+01:00"
    assert main(["extract", "--format", "jsonl", "--no-metadata", str(tmp_path / "a.html")]) == 0
    assert "metadata" not in json.loads(capsys.readouterr().out)


def test_without_the_article_extra_the_error_names_it(tmp_path):
    (tmp_path / "a.html").write_text(page(""), encoding="utf-8")
    done = run_cli_without("extruct", ["extract", "--metadata", str(tmp_path / "a.html")])
    assert done.returncode == 2
    assert "pip install 'scrapy-boilerplate-removal[article]'" in done.stderr


def test_a_page_that_is_only_a_url_is_never_fetched(monkeypatch):
    # htmldate downloads a str input that looks like a URL: the page must not reach it so
    import htmldate.utils

    fetched = []
    monkeypatch.setattr(htmldate.utils, "fetch_url", lambda url, *a, **k: fetched.append(url))
    for body in ("http://169.254.169.254/latest/meta-data/", b"https://internal.example/x"):
        extract(body, "https://daily.example/", metadata=True)
    assert fetched == []


def test_htmldate_is_not_started_once_the_time_budget_is_spent():
    import time

    from scrapy_boilerplate.metadata import extract_metadata
    from scrapy_boilerplate.parse import parse_html

    html = page("", BODY.replace("<h1>", '<p class="date">Published 2024-11-05</p><h1>'))
    doc = parse_html(html, "https://daily.example/2024/11/05/storm")
    assert extract_metadata(doc)["datePublished"] == "2024-11-05"
    doc.deadline = time.monotonic() - 1
    assert "datePublished" not in extract_metadata(doc)


def test_the_headline_is_the_pages_heading_that_matches_the_declarations():
    # the site's logo is an <h1> too; og:title carries the site's name
    head = '<meta property="og:title" content="Storm hits the northern coast | The Daily">'
    body = BODY.replace("<article>", "<header><h1>The Daily</h1></header><article>")
    meta = metadata(page(head, body))
    assert meta["headline"] == "Storm hits the coast"
    assert meta["sources"]["headline"] == "h1"


def test_a_declared_headline_loses_a_trailing_site_name_when_no_heading_matches():
    head = '<meta property="og:title" content="Storm hits the coast | The Daily">'
    body = BODY.replace("<h1>Storm hits the coast</h1>", "<h1>Subscribe today</h1>")
    meta = metadata(page(head, body))
    assert meta["headline"] == "Storm hits the coast"
    assert meta["sources"]["headline"] == "opengraph"
    # a long piece after a separator is part of the headline, not a site name
    head = '<meta property="og:title" content="Storms - what the new season of winter gales means">'
    assert metadata(page(head, body))["headline"].startswith("Storms - what")


def test_a_broken_json_ld_script_does_not_hide_a_good_one():
    good = {"@type": "NewsArticle", "author": {"@type": "Person", "name": "Ann Lee"}}
    head = (
        '<script type="application/ld+json">{"@type": "WebSite", "name": </script>'
        f'<script type="application/ld+json">{json.dumps(good)}</script>'
    )
    meta = metadata(page(head))
    assert meta["authors"] == [{"name": "Ann Lee"}]
    assert meta["sources"]["authors"] == "json-ld"


def test_a_json_ld_script_of_megabytes_is_not_read_but_the_others_are(monkeypatch):
    # decoding JSON costs about 1.5 s per 20 MB, and no real script comes near a million
    # characters (the data sets' longest: 153,095)
    from scrapy_boilerplate.metadata import sources

    huge = dict(JSON_LD["@graph"][2], headline="A headline padded " + "x" * 400)
    good = {"@type": "NewsArticle", "author": {"@type": "Person", "name": "Ann Lee"}}
    head = (
        f'<script type="application/ld+json">{json.dumps(huge)}</script>'
        f'<script type="application/ld+json">{json.dumps(good)}</script>'
    )
    assert metadata(page(head))["headline"].startswith("A headline padded")
    monkeypatch.setattr(sources, "MAX_JSON_LD_CHARS", 400)
    meta = metadata(page(head))
    assert meta["headline"] == "Storm hits the coast"  # from the page, not the script
    assert meta["authors"] == [{"name": "Ann Lee"}]
    assert meta["sources"]["authors"] == "json-ld"


def test_json_ld_is_read_up_to_a_bound_in_all_and_a_later_script_that_fits_is_read(
    monkeypatch,
):
    # 50 MB of broken scripts, each under the bound, took 7.3 s: extruct's fallback for a
    # script that is not JSON is a pure-Python pass over it
    from scrapy_boilerplate.metadata import sources

    def script(item, pad):
        return (
            f'<script type="application/ld+json">{json.dumps(dict(item, pad="x" * pad))}</script>'
        )

    first = {"@type": "NewsArticle", "description": "Told by the first script"}
    second = {"@type": "NewsArticle", "author": {"@type": "Person", "name": "Bo Ek"}}
    third = {"@type": "NewsArticle", "author": {"@type": "Person", "name": "Cy Ode"}}
    head = script(first, 500) + script(second, 500) + script(third, 0)
    assert metadata(page(head))["authors"] == [{"name": "Bo Ek"}]
    monkeypatch.setattr(sources, "MAX_JSON_LD_CHARS", 1000)
    meta = metadata(page(head))
    assert meta["description"] == "Told by the first script"  # the first was read
    assert meta["authors"] == [{"name": "Cy Ode"}]  # the second did not fit, the third did


def test_nested_microdata_is_read_in_linear_time():
    # each author element's subtree was searched and its whole text read, for every one
    # of thousands of nested author elements: quadratic in the depth
    from scrapy_boilerplate.metadata.sources import from_microdata
    from scrapy_boilerplate.parse import parse_html

    paragraph = "<p>" + "word " * 60 + "</p>"

    def nested(n):
        html = "<body>" + "<div itemprop='author'><div itemprop='headline'>" * n + paragraph
        return parse_html(html + "</div></div>" * n + "</body>").root

    ratio = growth(from_microdata, nested, 200)
    assert ratio < LINEAR_GROWTH_LIMIT


def test_microdata_keeps_the_first_values_and_their_first_characters():
    from scrapy_boilerplate.metadata.sources import MAX_TEXT, MAX_VALUES, from_microdata
    from scrapy_boilerplate.parse import parse_html

    authors = "".join(f"<span itemprop='author'>Writer {i}</span>" for i in range(50))
    long_headline = "<h1 itemprop='headline'>" + "storm " * 1000 + "</h1>"
    found = from_microdata(parse_html(f"<body>{long_headline}{authors}</body>").root)
    assert found["authors"] == [f"Writer {i}" for i in range(MAX_VALUES)]
    assert found["headline"][0].startswith("storm storm")
    assert len(found["headline"][0]) <= MAX_TEXT


def test_a_date_with_a_zone_name_is_read_without_a_warning():
    import warnings

    head = '<meta property="article:published_time" content="Tue, 04 Mar 2026 10:00:00 CET">'
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # dateutil warned on every unknown zone name
        found = metadata(page(head))
    assert found["datePublished"].startswith("2026-03-04")


def test_the_text_of_a_huge_page_is_not_searched_for_dates(monkeypatch):
    # htmldate's search of the text costs ~0.3 s per MB (10 s on a 50 MB page): past
    # MAX_TEXT_SEARCHED characters of text, only the markup, head and URL are read
    from scrapy_boilerplate.metadata import article

    body = BODY.replace("<p>A powerful storm", "<p>The storm of 4 March 2024. A powerful storm")
    url = "https://daily.example/storm"
    assert metadata(page("", body), url=url)["datePublished"] == "2024-03-04"
    monkeypatch.setattr(article, "MAX_TEXT_SEARCHED", 100)
    assert "datePublished" not in metadata(page("", body), url=url)


def test_the_markup_of_a_huge_page_is_not_searched_for_dates(monkeypatch):
    # htmldate's last resort searches the whole markup too (0.4 s per MB where nothing
    # declares a date: 18 s for a crafted 50 MB page whose markup is one data: address,
    # whatever the timeout); past MAX_MARKUP_SEARCHED characters of markup it does not
    from scrapy_boilerplate.metadata import article

    image = '<img src="data:image/png;base64,' + "A" * 5000 + '">'
    body = BODY.replace("<p>A powerful storm", image + "<p>The storm of 4 March 2024. A storm")
    url = "https://daily.example/storm"
    html = page("", body)
    assert metadata(html, url=url)["datePublished"] == "2024-03-04"
    monkeypatch.setattr(article, "MAX_MARKUP_SEARCHED", 5000)  # the text is far shorter
    assert "datePublished" not in metadata(html, url=url)
    # the length of the page as decoded, from bytes as from text
    assert "datePublished" not in extract(html.encode(), url, metadata=True).metadata
    monkeypatch.setattr(article, "MAX_MARKUP_SEARCHED", len(html))
    assert extract(html.encode(), url, metadata=True).metadata["datePublished"] == "2024-03-04"
    # past MAX_MARKUP_DATED htmldate is not run at all: a date in a <time> element is not
    # read, a declared one still is
    dated = page("", body.replace("<h1>", '<time datetime="2024-03-05">5 March</time><h1>'))
    assert metadata(dated, url=url)["datePublished"] == "2024-03-05"
    monkeypatch.setattr(article, "MAX_MARKUP_DATED", 5000)
    assert "datePublished" not in metadata(dated, url=url)
    declared = '<meta property="article:published_time" content="2024-03-06T10:00:00Z">'
    assert metadata(page(declared, body), url=url)["datePublished"].startswith("2024-03-06")


def _many_names(n: int) -> str:
    return " and ".join(f"Writer{i} Lee{i}" for i in range(n))


@pytest.mark.parametrize(
    "declare",
    [
        lambda names: f'<meta name="author" content="{names}">',
        lambda names: (
            '<script type="application/ld+json">'
            + json.dumps(
                {"@type": "NewsArticle", "author": names, "keywords": names.replace(" and ", ",")}
            )
            + "</script>"
        ),
        lambda names: f'<meta name="keywords" content="{names.replace(" and ", ",")}">',
    ],
    ids=["meta-author", "json-ld", "meta-keywords"],
)
def test_a_declared_list_of_any_length_is_read_in_linear_time_and_capped(declare):
    # each name was checked against every name kept before it: a page declaring 20,000
    # authors in one string took 5 s, and 80,000 would take 16 times that
    from scrapy_boilerplate.metadata.article import MAX_AUTHORS, MAX_KEYWORDS

    meta = metadata(page(declare(_many_names(500))))
    assert len(meta.get("authors", ())) in (0, MAX_AUTHORS)
    assert len(meta.get("keywords", ())) in (0, MAX_KEYWORDS)
    assert meta.get("authors", [{"name": "Writer0 Lee0"}])[0] == {"name": "Writer0 Lee0"}
    ratio = growth(lambda html: metadata(html), lambda n: page(declare(_many_names(n))), 3000)
    assert ratio < LINEAR_GROWTH_LIMIT
