"""Any str or bytes gives an Extraction, for every registered extractor: random bytes, text,
tag soup with control characters and charset declarations (hypothesis, derandomized so
that CI runs the same examples every time), a corpus of hostile pages that once raised
or stalled, and the default's every output (Markdown, HTML, metadata, comments) on tag
soup with links, bases and declarations."""

from __future__ import annotations

import json
import os

import lxml.html
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scrapy_boilerplate import EXTRACTORS, Extraction, extract, get_extractor

NAMES = sorted(EXTRACTORS)
#: FUZZ_EXAMPLES=5000 python -m pytest tests/test_fuzz.py: a long run with new examples
#: each time (by default 40 per test, the same ones on every CI run)
_LONG_RUN = os.environ.get("FUZZ_EXAMPLES")
FUZZ = settings(
    max_examples=int(_LONG_RUN or 40),
    deadline=None,
    derandomize=not _LONG_RUN,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)

CODECS = ["utf-8", "latin-1", "cp1251", "gbk", "shift_jis", "utf-16", "rot13", "base64",
          "hex", "zlib", "uu", "idna", "punycode", "no-such-codec", ""]  # fmt: skip
TAG_PIECES = [
    "<p>", "</p>", "</p ", "<div class='comment'>", "</div>", "<a href=x>", "</a>", "<b>",
    "<title>", "</title>", "<title ", "<embed>", "<embed ", "</embed>", "<!--", "-->",
    "<script>", "</script>", "<style>", "</style>", "<head>", "</head>", "<noscript>",
    "<body>", "</body>", "</html>", "<table><tr><td>", "<br>", "<li>", "<h1>", "&amp;",
    "word ", "Words of a sentence. ", "a@b.c ", "a@", "a-", "\x0c", "\x01", "\x00", "\ufffe",
    "\ud800", "中文字。", "\u200b", "<div " + " ".join(f"a{i}" for i in range(30)) + ">",
]  # fmt: skip


def _check(html: str | bytes) -> None:
    for name in NAMES:
        result = extract(html, extractor=name)
        assert isinstance(result, Extraction) and isinstance(result.text, str), name


@FUZZ
@given(st.binary(max_size=3000))
def test_any_bytes(data):
    _check(data)


@FUZZ
@given(st.text(max_size=3000))
def test_any_text(text):
    _check(text)


@FUZZ
@given(
    st.lists(st.sampled_from(TAG_PIECES), max_size=80),
    st.sampled_from(CODECS),
    st.sampled_from(["meta", "xml", "header", "none"]),
    st.sampled_from(["utf-8", "latin-1", "utf-16-le", "cp1252"]),
)
def test_tag_soup_with_charset_declarations(pieces, codec, where, actual):
    body = "".join(pieces)
    if where == "meta":
        body = f'<meta charset="{codec}">' + body
    elif where == "xml":
        body = f'<?xml version="1.0" encoding="{codec}"?>' + body
    data = body.encode(actual, errors="surrogatepass" if actual.startswith("utf") else "replace")
    for name in NAMES:
        headers = {"content_type": f"text/html; charset={codec}"} if where == "header" else {}
        result = extract(data, extractor=name, **headers)
        assert isinstance(result, Extraction), name


# -- pages that once raised or stalled (issue: hostile pages), small enough for a test ------
HOSTILE = {
    "stray </p without >": "<html><body><p>x</p>" + "</p " * 20_000,
    "<title without >": "<html><head>" + "<title " * 20_000,
    "unclosed titles": "<html><head>" + "<title>x" * 10_000,
    "<embed without >": "<html><body>" + "<embed " * 20_000,
    "e-mail run": "<p>a@" + "a-" * 50_000 + "</p>",
    "control character and body element in the head": (
        "<html><head><noscript></noscript></head><body>Hello\x0cworld</body></html>"
    ),
    "codec that is no text encoding": b'<meta charset="rot13"><p>hello</p>',
    "idna declared": '<meta charset="idna"><p>h\xe9llo</p>'.encode("latin-1"),
    "100,000 attributes": "<html><body><div "
    + " ".join(f"a{i}=1" for i in range(100_000))
    + ">x</div></body></html>",
    "tiny elements": "<html><body>" + "<p>x</p>" * 80_000,
}


@pytest.mark.parametrize("html", HOSTILE.values(), ids=list(HOSTILE))
def test_the_hostile_pages_give_an_extraction_with_every_extractor(html):
    _check(html)


# -- every output at once: links, images, bases and declarations a page may hold ---------
ARTICLE_PIECES = [
    *TAG_PIECES,
    "Words of a sentence long enough to be the story of the page. " * 3,
    "<h1>A headline</h1>", "<ul><li>", "<ol start=-99999999999999999999>", "<pre>", "`", "*",
    "<td colspan=1000000>", "<blockquote>", "<figure><figcaption>", "</figure>",
    "<a href='http://[::1'>", "<a href='//evil.example'>", "<a href='http://a:99999/'>",
    "<img src='//[x/a.png' alt='a]b'>", "<img src='data:image/png;base64,AAA'>",
    "<base href='http://[x'>", "<base href='javascript:x'>",
    "<link rel=canonical href='http://[z'>", "<meta property='og:image' content='javascript:x'>",
    "<meta property='article:published_time' content='2020-02-30'>",
    "<script type='application/ld+json'>", '{"@type":"NewsArticle","headline":', '"url":',
    '"http://[w"', '"9999-01-01"', '{"name":{"name":', "[", "]", "{", "}", ",", ":",
    "<span class=byline>By ", "<a rel=author>", "<time datetime='2020-01-01T25:00'>",
    "<div itemscope itemtype='http://schema.org/Article'>", "<span itemprop=datePublished>",
    "<svg><a xlink:href='javascript:1'>", "<iframe srcdoc='<p>x'>", "<textarea>",
]  # fmt: skip
URLS = [None, "https://news.example/a/b.html", "not a url", "http://[::1/"]


@FUZZ
@given(st.lists(st.sampled_from(ARTICLE_PIECES), max_size=120), st.sampled_from(URLS))
def test_every_output_of_the_default_holds_on_tag_soup(pieces, url):
    result = extract(
        "".join(pieces), url, formats=("markdown", "html"), metadata=True, comments=True
    )
    assert all(isinstance(out, str) for out in (result.text, result.markdown, result.html))
    assert isinstance(result.comments, str) and isinstance(result.metadata, dict)
    # an output that raised would be empty with a warning (it must not cost the text)
    assert not [warning for warning in result.warnings if "_error: " in warning]
    if result.html:  # nothing that runs (tests/markup/test_html.py has the vectors)
        for element in lxml.html.fragment_fromstring(result.html, create_parent="div").iter():
            if isinstance(element.tag, str):
                assert element.tag not in ("script", "style", "iframe", "svg", "base"), element.tag
                for name, value in element.attrib.items():
                    assert not name.lower().startswith("on"), name
                    assert not "".join(value.split()).lower().startswith("javascript:"), value


@FUZZ
@given(st.lists(st.sampled_from(ARTICLE_PIECES), max_size=120), st.sampled_from(URLS))
def test_the_annotated_view_holds_on_tag_soup(pieces, url):
    document = get_extractor().annotate("".join(pieces), url)
    tree = lxml.html.document_fromstring(document)
    for element in tree.find("body").iter():
        if isinstance(element.tag, str):
            assert element.tag not in ("script", "style", "iframe", "svg", "base"), element.tag
            for name, value in element.attrib.items():
                assert not name.lower().startswith("on"), name
                assert not "".join(value.split()).lower().startswith("javascript:"), value


# -- the metadata on any JSON-LD: values of every JSON type wherever a field is read ------
JSON_LD_KEYS = ["@type", "@graph", "@id", "headline", "name", "author", "creator",
                "datePublished", "dateModified", "image", "url", "inLanguage", "description",
                "keywords", "publisher", "mainEntityOfPage", "@value", "@list"]  # fmt: skip
JSON_LD_VALUES = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(10**20), max_value=10**20),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=12),
    st.sampled_from(
        [
            "NewsArticle",
            "Person",
            "WebPage",
            "2020-02-30T25:61:00+99:00",
            "http://[::1",
            "javascript:x",
            "Ann Lee",
            "9" * 40,
        ]
    ),  # fmt: skip
)
JSON_LD = st.recursive(
    JSON_LD_VALUES,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4),
        # objects with a type, of any JSON type, and any of the fields read
        st.fixed_dictionaries(
            {"@type": st.one_of(JSON_LD_VALUES, st.lists(JSON_LD_VALUES, max_size=3))},
            optional=dict.fromkeys(JSON_LD_KEYS[1:], inner),
        ),
    ),
    max_leaves=25,
)


@FUZZ
@given(st.lists(JSON_LD, max_size=3))
def test_the_metadata_holds_on_any_json_ld(documents):
    # a number as "@type" made the whole page's metadata raise
    head = "".join(
        f'<script type="application/ld+json">{json.dumps(document)}</script>'
        for document in documents
    )
    body = "<h1>A headline</h1><p>" + "Words of a sentence long enough. " * 10 + "</p>"
    html = f"<html><head>{head}</head><body>{body}</body></html>"
    result = extract(html, "https://news.example/a", metadata=True)
    assert "Words of a sentence" in result.text and isinstance(result.metadata, dict)
    assert not [warning for warning in result.warnings if "_error: " in warning]
    for field in ("headline", "description", "inLanguage", "canonicalUrl", "datePublished"):
        assert field not in result.metadata or isinstance(result.metadata[field], str)
