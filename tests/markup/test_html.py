"""The HTML fragment: the content's structure, and nothing that runs."""

from __future__ import annotations

import pytest

from scrapy_boilerplate import extract

from ..helpers import LINEAR_GROWTH_LIMIT, growth

ARTICLE = (
    "<p>A powerful storm hit the northern coast on Tuesday night, bringing heavy rain and "
    "winds of more than a hundred kilometres an hour to several towns along the shore.</p>"
)

#: XSS vectors in the style of OWASP's filter-evasion cheat sheet, each inside content
VECTORS = [
    "<script>alert('XSS')</script>",
    "<img src=x onerror=alert('XSS')>",
    "<img src=\"javascript:alert('XSS')\">",
    "<a href=\"javascript:alert('XSS')\">click here for the whole storm report</a>",
    "<a href=\"JaVaScRiPt:alert('XSS')\">click here for the whole storm report</a>",
    "<a href=\"jav&#x09;ascript:alert('XSS');\">click here for the whole storm report</a>",
    '<a href="&#106;&#97;&#118;&#97;&#115;&#99;&#114;&#105;&#112;&#116;&#58;alert(1)">click here</a>',
    '<a href="data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==">click here</a>',
    "<a href=\"vbscript:msgbox('XSS')\">click here for the whole storm report</a>",
    "<svg onload=alert(1)><text>storm</text></svg>",
    "<body onload=alert('XSS')>",
    "<iframe src=\"javascript:alert('XSS');\"></iframe>",
    "<style>@import 'http://evil.example/xss.css';</style>",
    "<div style=\"background-image: url(javascript:alert('XSS'))\">styled storm text</div>",
    "<p onmouseover=\"alert('XSS')\">hover over the storm report to read it</p>",
    "<math><mtext><table><mglyph><style><img src=x onerror=alert(1)>",
    '<object data="javascript:alert(1)"></object><embed src="javascript:alert(1)">',
    '<form action="javascript:alert(1)"><button>storm</button></form>',
    '<meta http-equiv="refresh" content="0;url=javascript:alert(1)">',
    '<link rel="stylesheet" href="javascript:alert(1)">',
    "<p>&lt;script&gt;alert(1)&lt;/script&gt; is text about the storm, not markup</p>",
]


@pytest.mark.parametrize("vector", VECTORS)
def test_no_vector_survives_into_the_html_fragment(vector):
    page = f"<html><body><article><h1>Storm</h1>{ARTICLE}{vector}{ARTICLE}</article></body></html>"
    out = extract(
        page, "https://news.example/a.html", extractor="keep_everything", formats=("html",)
    ).html
    lowered = out.lower()
    assert "storm hit the northern coast" in lowered  # the content is there
    for needle in (
        "<script",
        "<style",
        "<iframe",
        "<object",
        "<embed",
        "<svg",
        "<form",
        "<meta",
        "<link",
        "javascript:",
        "vbscript:",
        "data:",
        "onerror",
        "onload",
        "onmouseover",
        "style=",
    ):
        assert needle not in lowered, (needle, out)


def test_the_fragment_keeps_structure_and_absolute_links():
    page = (
        "<body><h2>Storm</h2><p>See <a href='/coast'>the coast</a> and <em>this</em>.</p>"
        "<ul><li>one</li><li>two</li></ul></body>"
    )
    out = extract(
        page, "https://news.example/x/y.html", extractor="keep_everything", formats=("html",)
    ).html
    assert out.startswith("<div>") and out.endswith("</div>")
    assert "<h2>Storm</h2>" in out and "<ul><li>one</li><li>two</li></ul>" in out
    assert '<a href="https://news.example/coast" rel="noopener noreferrer nofollow">' in out


def test_an_unknown_format_is_refused():
    with pytest.raises(ValueError, match="unknown format 'pdf'"):
        extract("<p>x</p>", formats=("pdf",))


def test_long_runs_of_escaped_characters_are_sanitised_in_linear_time():
    # nh3's parser is quadratic in one run of text dense in characters it escapes
    # (&nbsp;, &amp;, ...): long runs reach it cut by comments, which it drops
    from scrapy_boilerplate.markup import content_tree, render_html
    from scrapy_boilerplate.parse import parse_html

    def tree(n):
        doc = parse_html("<body><p>" + "&nbsp;&amp;" * n + "</p></body>")
        for block in doc.blocks:
            block.is_content = True
        return content_tree(doc)

    assert growth(render_html, tree, 40_000) < LINEAR_GROWTH_LIMIT


def test_cutting_long_runs_leaves_the_output_as_it_was(monkeypatch):
    from scrapy_boilerplate.markup import html as html_module

    page = (
        "<body><p>"
        + "A long paragraph &amp; more words&nbsp;here. " * 200
        + "<b>bold</b>"
        + " and a tail &lt;after&gt; it. " * 100
        + "</p><pre>"
        + "code line\n" * 300
        + "</pre></body>"
    )
    whole = extract(page, extractor="keep_everything", formats=("html",)).html
    monkeypatch.setattr(html_module, "MAX_RUN", 7)
    assert extract(page, extractor="keep_everything", formats=("html",)).html == whole
    assert "<!--" not in whole
