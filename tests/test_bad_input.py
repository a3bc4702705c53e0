"""Bad input gets a clear result: an Extraction (maybe empty, with a reason), never a crash.

The only exception is for input that is not HTML at all in type (neither str nor bytes):
``TypeError``.
"""

import gzip
import os
import random

import pytest

from scrapy_boilerplate import Extraction, extract

ARTICLE = (
    "<p>The council approved the budget on Tuesday after a long debate about schools, "
    "libraries and the repair of the old bridge over the river in the town centre.</p>"
)


def check(result, reason=None):
    assert isinstance(result, Extraction)
    assert isinstance(result.text, str)
    if reason is not None:
        assert result.text == ""
        assert result.reason == reason
    return result


@pytest.mark.parametrize("html", ["", b"", "   \n\t ", b"  \r\n"])
def test_empty_and_whitespace_input_is_an_empty_result(html):
    check(extract(html), "empty_input")


def test_a_page_without_body_tag():
    result = check(extract("<html><head><title>T</title></head>" + ARTICLE + "</html>"))
    assert "approved the budget" in result.text
    result = check(extract(ARTICLE))  # a bare fragment
    assert "approved the budget" in result.text


def test_a_page_with_only_a_head_has_no_text():
    check(extract("<html><head><title>Only a title</title></head></html>"), "no_text")


def test_a_page_of_only_scripts_has_no_text():
    html = "<html><body><script>var a = 1;</script><style>p {}</style></body></html>"
    check(extract(html), "no_text")


def test_a_page_of_only_links_has_no_content_for_boilerpipe():
    links = "".join(f'<li><a href="/{i}">Section number {i}</a></li>' for i in range(40))
    html = f"<html><body><ul>{links}</ul></body></html>"
    check(extract(html, extractor="article"), "no_content")
    # the learned default labels blocks against the rest of the page: with nothing else on
    # it, the links are what there is (a known limit, in its model card); still a result
    check(extract(html))


def test_a_50_mb_page_is_extracted_up_to_the_tag_limit():
    from scrapy_boilerplate.limits import MAX_TAGS

    para = "<p>" + " ".join(["word"] * 120) + " end.</p>\n"
    html = "<html><body>" + para * (50_000_000 // len(para)) + "</body></html>"
    result = check(extract(html))
    assert result.text.startswith("word word")
    # every paragraph up to the limit was read and labelled (<html> and <body> are tags too)
    assert len(result.blocks) == MAX_TAGS - 2
    assert any(w.startswith("tags_limit") for w in result.warnings)


def test_a_page_of_50000_stray_paragraph_ends_is_extracted():
    # each stray </p> is an empty paragraph, as NekoHTML makes it (a block boundary); the
    # check whether one sits in a comment or script once sliced 200,000 characters per
    # </p>: tens of seconds for this page
    html = "<html><body><div>" + "some text </p>" * 50_000 + "</div></body></html>"
    result = check(extract(html, extractor="keep_everything"))
    assert len(result.content_blocks) == 50_000
    assert result.text.startswith("some text\n\nsome text")


@pytest.mark.parametrize("tag", ["div", "b", "span"])
def test_a_dom_nested_100000_levels_deep(tag):
    depth = 100_000
    html = f"<html><body><p>start here</p>{f'<{tag}>' * depth}deep text{f'</{tag}>' * depth}</body></html>"
    result = check(extract(html, extractor="keep_everything"))
    assert "start here" in result.text
    # libxml2 stops building the tree at its nesting limit; the result says so
    assert any("depth_limit" in w for w in result.warnings)


#: every output beside the text: what a crawl that stores whole articles asks for
ALL_OUTPUTS = {"formats": ("markdown", "html"), "metadata": True, "comments": True}
_DEEP_TEXT = "<p>" + "deep text " * 30 + "</p>"


@pytest.mark.parametrize(
    "html",
    [
        # 100,000 deep: libxml2 cuts the tree at its nesting limit
        *(f"<html><body><p>start here</p>{f'<{t}>' * 100_000}deep text" for t in ("div", "b")),
        # 1,500 deep: within libxml2's limit, deeper than Python's stack
        *(
            f"<html><body>{f'<{tag}>' * 1500}{_DEEP_TEXT}{f'</{t}>' * 1500}</body></html>"
            for tag, t in (
                ("blockquote", "blockquote"),
                ("b", "b"),
                ("div class='comments'", "div"),
                ("div itemprop='author'", "div"),
                ("ul><li", "li></ul"),
            )
        ),
    ],
    ids=["div-100000", "b-100000", "blockquote", "b", "comments", "microdata", "lists"],
)
def test_every_output_survives_deep_nesting(html):
    result = check(extract(html, "https://news.example/a", **ALL_OUTPUTS))
    if "deep text" in result.text:
        assert "deep text" in result.markdown
        assert "deep text" in result.html
    assert isinstance(result.comments, str)


@pytest.mark.parametrize(
    "html",
    ["", b"\x00\x01\x02" * 1000, "<html><head><title>Only a title</title></head></html>"],
    ids=["empty", "binary", "no-text"],
)
def test_every_output_is_empty_not_missing_without_text(html):
    result = check(extract(html, "https://news.example/a", **ALL_OUTPUTS))
    assert result.text == result.markdown == result.html == result.comments == ""


@pytest.mark.parametrize(
    "html",
    [
        f"<html><body>{_DEEP_TEXT}<p>a control \x01 character in the text</p></body></html>",
        f"<html><body>{_DEEP_TEXT}<p>an image <img src='a.png' alt='x\x01y'> here</p></body>",
        f"<html><body>{_DEEP_TEXT}<p>a <a href='/a\x01b'>link with words</a> here</p></body>",
        '<html><head><script type="application/ld+json">{"@type": "NewsArticle", '
        f'"headline": "Storm\x01"}}</script></head><body>{_DEEP_TEXT}</body></html>',
        f"<html><head><meta property='og:title' content='a\x02b'></head><body>{_DEEP_TEXT}</body>",
    ],
    ids=["text", "alt", "href", "json-ld", "opengraph"],
)
def test_control_characters_break_no_output(html):
    # lxml refuses them in text and attributes set through its API: the copies the
    # outputs make turn them into spaces
    result = check(extract(html, "https://news.example/a", **ALL_OUTPUTS))
    for output in (result.markdown, result.html):
        assert "deep text" in output
        assert "\x01" not in output and "\x02" not in output
    if "Storm" in html or "og:title" in html:  # the declared headline is read
        assert result.metadata["headline"] in ("Storm", "a b")


_UNPARSEABLE = "http://[::1"  # an unbalanced IPv6 bracket: urllib raises ValueError on it


@pytest.mark.parametrize(
    "html",
    [
        f"<html><body>{_DEEP_TEXT}<p>a <a href='{_UNPARSEABLE}'>link with words</a></p></body>",
        f"<html><body>{_DEEP_TEXT}<figure><img src='//[x/a.png' alt='a'></figure></body>",
        f"<html><head><base href='{_UNPARSEABLE}'></head><body>{_DEEP_TEXT}"
        "<p><a href='page.html'>a relative link</a></p></body>",
        f"<html><head><link rel='canonical' href='{_UNPARSEABLE}'>"
        f"<meta property='og:image' content='{_UNPARSEABLE}'></head><body>{_DEEP_TEXT}</body>",
        '<html><head><script type="application/ld+json">{"@type": "NewsArticle", '
        f'"url": "{_UNPARSEABLE}", "image": "{_UNPARSEABLE}", "author": {{"name": "Ann Lee", '
        f'"url": "{_UNPARSEABLE}"}}}}</script></head><body>{_DEEP_TEXT}</body></html>',
    ],
    ids=["link", "image", "base", "canonical", "json-ld"],
)
@pytest.mark.parametrize("url", ["https://news.example/a", _UNPARSEABLE + "/a", None])
def test_a_url_that_cannot_be_parsed_costs_that_url_only(html, url):
    # one such link once made the Markdown, HTML and metadata of the whole page raise
    result = check(extract(html, url, **ALL_OUTPUTS))
    for output in (result.text, result.markdown, result.html):
        assert "deep text" in output
    assert "[::1" not in result.html and "[x" not in result.html
    assert "canonicalUrl" not in result.metadata and "mainImage" not in result.metadata
    if "Ann Lee" in html:
        assert result.metadata["authors"] == [{"name": "Ann Lee"}]


@pytest.mark.parametrize(
    "module, function, output",
    [
        ("scrapy_boilerplate.metadata", "extract_metadata", "metadata"),
        ("scrapy_boilerplate.markup", "render_markdown", "markdown"),
        ("scrapy_boilerplate.markup", "render_html", "html"),
        ("scrapy_boilerplate.markup", "content_tree", "markup"),
        ("scrapy_boilerplate.extraction", "comment_text", "comments"),
    ],
)
def test_an_output_besides_the_text_that_fails_costs_only_itself(
    monkeypatch, module, function, output
):
    # no input is known to make one fail (the fuzz tests look for them); if one does, the
    # page keeps its text (in a crawl, the item its main text) and says what failed
    def broken(*args):
        raise TypeError("a bug of ours")

    monkeypatch.setattr(f"{module}.{function}", broken)
    result = check(extract(f"<html><body>{_DEEP_TEXT}</body></html>", **ALL_OUTPUTS))
    assert "deep text" in result.text and result.reason is None
    assert f"{output}_error: TypeError: a bug of ours" in result.warnings
    empty = {"metadata": {}, "comments": "", "markdown": "", "html": ""}
    for name in (output,) if output != "markup" else ("markdown", "html"):
        assert getattr(result, name) == empty[name]


def test_unclosed_nesting_100000_deep():
    result = check(extract("<html><body>" + "<div>x " * 100_000, extractor="keep_everything"))
    assert result.text.startswith("x")


def test_binary_garbage_sent_as_html():
    rng = random.Random(1)
    data = bytes(rng.randrange(256) for _ in range(200_000))
    check(extract(data))
    check(extract(data.decode("latin-1")))
    check(extract(gzip.compress(b"<html><body>" + ARTICLE.encode() + b"</body></html>")))


def test_nul_characters_do_not_cut_the_page():
    result = check(
        extract("<html><body>" + ARTICLE.replace("budget", "bud\x00get") + "</body></html>")
    )
    assert "bridge over the river" in result.text


def test_lone_surrogates_in_a_str():
    check(extract("<html><body>" + ARTICLE + "\ud800</body></html>"))


def test_bytes_in_a_wrong_declared_encoding_come_out_garbled_not_failing():
    html = (
        '<html><head><meta charset="utf-8"></head><body>'
        + ARTICLE.replace("river", "rivière")
        + "</body></html>"
    )
    result = check(extract(html.encode("cp1252")))
    assert "bridge over the" in result.text


def test_bytes_without_a_declared_encoding_are_detected():
    html = "<html><body>" + ARTICLE.replace("river", "rivière") + "</body></html>"
    assert "rivière" in extract(html.encode("utf-8")).text
    assert "rivière" in extract(html.encode("cp1252")).text


@pytest.mark.parametrize(
    "encoding, word",
    [
        ("iso-8859-1", "café à la crème"),
        ("gb2312", "经济新闻报道"),
        ("shift_jis", "日本語の記事です"),
    ],
)
def test_pages_in_declared_legacy_encodings(encoding, word):
    body = (ARTICLE[:-4] + " " + word + "</p>") * 3
    html = f'<html><head><meta http-equiv="Content-Type" content="text/html; charset={encoding}"></head><body>{body}</body></html>'
    result = check(extract(html.encode(encoding)))
    assert word in result.text


def test_a_str_with_an_xml_encoding_declaration():
    html = (
        "<?xml version='1.0' encoding='iso-8859-1'?><html><body>"
        + ARTICLE.replace("river", "rivière")
        + "</body></html>"
    )
    assert "rivière" in check(extract(html)).text


def test_xml_and_rss_documents():
    rss = (
        "<?xml version='1.0'?><rss version='2.0'><channel><title>Feed</title>"
        "<item><title>One</title><description>" + "Some words here " * 20 + "</description></item>"
        "</channel></rss>"
    )
    check(extract(rss))
    check(extract(rss.encode()))
    check(extract("<?xml version='1.0'?><root><a>1</a><b>text</b></root>"))


def test_other_types_raise_type_error():
    with pytest.raises(TypeError, match="str or bytes"):
        extract(42)
    with pytest.raises(TypeError):
        extract(None)


def test_a_random_byte_soup_of_tags_never_fails():
    rng = random.Random(3)
    pieces = [
        "<p>",
        "</p>",
        "<a href=x>",
        "</a>",
        "<div>",
        "</table>",
        "<td>",
        "<title>",
        "</body>",
        "<embed>",
        "<!--",
        "-->",
        "<script>",
        "</script>",
        "text ",
        "word, ",
        "&amp;",
        "<br>",
        "<li>",
    ]
    for _ in range(200):
        html = "".join(rng.choice(pieces) for _ in range(rng.randrange(1, 60)))
        check(extract(html))
        check(extract(html, extractor="article_v13"))


@pytest.mark.skipif(not os.path.exists("/dev/urandom"), reason="no /dev/urandom")
def test_every_extractor_survives_garbage():
    from scrapy_boilerplate import EXTRACTORS

    data = os.urandom(20_000)
    for name in EXTRACTORS:
        check(extract(data, extractor=name))


@pytest.mark.parametrize("control", ["\x0c", "\x01", "\x1f", "\x0b"])
def test_a_control_character_beside_body_content_in_the_head(control):
    # <noscript> in the head starts the body (as NekoHTML does): the text moved with it
    # holds a character lxml refuses to set back
    html = (
        f"<html><head><noscript></noscript></head><body>Hello{control}world {ARTICLE}</body></html>"
    )
    result = check(extract(html))
    assert "council approved the budget" in result.text


@pytest.mark.parametrize(
    "charset", ["rot13", "base64", "hex", "zlib", "uu", "bz2", "idna", "punycode", "quopri"]
)
def test_a_page_naming_a_codec_that_is_not_a_text_encoding(charset):
    # only text encodings decode a page: the name is ignored, as if none were declared
    body = f'<meta charset="{charset}"><p>caf\u00e9 {ARTICLE[3:]}'.encode()
    result = check(extract(body))
    assert "café" in result.text
    header = check(extract(body, content_type=f"text/html; charset={charset}"))
    assert "café" in header.text


@pytest.mark.parametrize(
    "body",
    [
        os.urandom(5000),
        bytes(random.Random(2).randrange(256) for _ in range(20_000)),
        b"\x89PNG\r\n\x1a\n" + b"<p>" * 100,
        b"%PDF-1.7\n" + ARTICLE.encode() * 10,
        gzip.compress(ARTICLE.encode() * 20),
        b"PK\x03\x04" + bytes(200),
    ],
    ids=["urandom", "random", "png", "pdf", "gzip", "zip"],
)
def test_binary_bytes_are_no_text(body):
    check(extract(body), "binary")


def test_text_with_a_few_control_bytes_is_still_text():
    body = ("<html><body>" + ARTICLE + "\x01\x02\x1b</body></html>").encode()
    assert "budget" in check(extract(body)).text
    bom = "\ufeff<html><body>" + ARTICLE + "</body></html>"
    assert "budget" in check(extract(bom.encode("utf-16"))).text


def test_the_title_is_found_where_the_parser_put_it():
    # an <iframe> (or <noscript>) in the head starts the body: lxml moves the title there
    html = "<html><head><iframe></iframe><title>T</title></head><body><p>" + "word " * 50
    assert extract(html + "</p></body></html>").title == "T"
    svg = "<html><head><iframe></iframe></head><body><svg><title>icon</title></svg><p>x</p>"
    assert extract(svg).title is None  # an SVG's title is no page title
