"""NoscriptContent (``filters/noscript.py``): a page whose article only a script shows, and
repeats in ``<noscript>``, is read as a browser without JavaScript shows it."""

import copy
import gzip
from pathlib import Path

import pytest

from scrapy_boilerplate import extract, get_extractor
from scrapy_boilerplate.filters import NoscriptContent
from scrapy_boilerplate.parse import parse_html

from ..helpers import LINEAR_GROWTH_LIMIT, growth

PARAGRAPHS = [
    "The council approved the repair of the old bridge on Tuesday, after engineers found "
    "cracks in two of its piers during the autumn inspection of the town centre.",
    "Work starts next month and should take about twelve weeks, the council said, with a "
    "temporary footbridge for pedestrians and cyclists in the meantime.",
    "Shop owners on both banks had asked for the repair since the spring, when the first "
    "cracks were reported by a local rowing club training under the bridge.",
]
ARTICLE = "".join(f"<p>{p}</p>" for p in PARAGRAPHS)
NAVIGATION = (
    '<div class="nav"><a href="/">Home</a> | <a href="/news">News</a> | '
    '<a href="/sport">Sport</a></div>'
)
FOOTER = '<div class="footer"><a href="/privacy">Privacy</a> <a href="/about">About</a></div>'

#: a Blogger post (fixtures/README.md): the post in a script template, and in <noscript>
BLOGGER_PAGE = gzip.decompress(
    (Path(__file__).parent / "fixtures" / "blogger-noscript.html.gz").read_bytes()
).decode()
BLOGGER_URL = "https://security.googleblog.com/2020/05/enhanced-safe-browsing-protection-now.html"
BLOGGER_TEXT = [
    "ve seen threats on the web becoming increasingly sophisticated",
    "This protocol is designed so that Google cannot",
    "billions of users are incredibly diverse, with",
]
#: the page's boilerplate (the set's "without" snippets)
BLOGGER_BOILERPLATE = [
    "Give us feedback in our",
    "Google Privacy Terms",
    "insights from Google on security and safety on the Internet",
]

#: the same pattern in a few lines
SCRIPTED_PAGE = (
    "<html><head><title>Bridge to reopen | The Town Post</title></head><body>"
    f"{NAVIGATION}<h1>Bridge to reopen</h1>"
    '<div class="post-body"><script type="text/template">' + ARTICLE + "</script>"
    f"<noscript>{ARTICLE}</noscript></div>{FOOTER}</body></html>"
)
#: an ordinary page with a notice for readers without JavaScript
ORDINARY_PAGE = (
    "<html><head><title>Bridge to reopen</title></head><body>"
    f"{NAVIGATION}<h1>Bridge to reopen</h1><div class='story'>{ARTICLE}</div>"
    "<noscript>Please enable JavaScript to view the comments powered by Disqus, and to "
    "vote in our weekly poll about the future of the old bridge and the footbridge.</noscript>"
    f"{FOOTER}</body></html>"
)


def test_the_default_reads_a_post_that_only_noscript_holds():
    pytest.importorskip("onnxruntime", reason="onnxruntime is not installed")
    result = extract(BLOGGER_PAGE, BLOGGER_URL)
    for snippet in BLOGGER_TEXT:
        assert snippet in result.text
    for snippet in BLOGGER_BOILERPLATE:
        assert snippet not in result.text
    assert result.reason is None


def test_without_the_filter_the_same_page_has_no_content():
    pytest.importorskip("onnxruntime", reason="onnxruntime is not installed")
    result = extract(BLOGGER_PAGE, BLOGGER_URL, extractor=[{"boosted": {"noscript": False}}])
    assert result.text == ""
    assert result.reason == "no_content"


def test_the_renderings_come_from_the_noscript_markup():
    pytest.importorskip("onnxruntime", reason="onnxruntime is not installed")
    result = extract(BLOGGER_PAGE, BLOGGER_URL, formats=("markdown", "html"), metadata=True)
    assert BLOGGER_TEXT[1] in result.markdown
    assert BLOGGER_TEXT[1] in result.html
    assert result.metadata["headline"]


def test_a_page_with_content_keeps_its_noscript_out():
    pytest.importorskip("onnxruntime", reason="onnxruntime is not installed")
    result = extract(ORDINARY_PAGE)
    assert PARAGRAPHS[0] in result.text
    assert "enable JavaScript" not in result.text
    assert next(result.document.root.iter("noscript")) is not None


def test_the_parsed_tree_is_not_changed():
    # a parse may be shared by several chains (Document.copy shares the tree)
    doc = parse_html(SCRIPTED_PAGE)
    before = len(list(doc.root.iter("noscript")))
    copied = doc.copy()
    assert NoscriptContent("keep_everything")(copied)
    assert copied.root is not doc.root
    assert len(list(doc.root.iter("noscript"))) == before == 1
    assert not any(b.is_content for b in doc.blocks)
    assert PARAGRAPHS[1] in copied.content()


def test_a_notice_of_fewer_than_min_words_is_not_read():
    doc = parse_html(
        "<html><body><p>Short page.</p><noscript>Please enable JavaScript.</noscript></body></html>"
    )
    blocks = list(doc.blocks)
    assert not NoscriptContent("keep_everything")(doc)
    assert doc.blocks == blocks
    assert NoscriptContent("keep_everything", min_words=2)(doc)
    assert "Please enable JavaScript." in doc.content()


def test_a_page_without_noscript_or_without_a_tree_is_left_alone():
    doc = parse_html("<html><body><p>" + PARAGRAPHS[0] + "</p></body></html>")
    assert not NoscriptContent("keep_everything")(doc)
    assert not NoscriptContent("keep_everything")(parse_html(""))


def test_any_chain_spec_reads_the_noscript_markup():
    spec = ["mark_everything_boilerplate", {"noscript_content": {"extractor": "keep_everything"}}]
    text = extract(SCRIPTED_PAGE, extractor=spec).text
    assert PARAGRAPHS[2] in text
    assert extract(SCRIPTED_PAGE, extractor=["mark_everything_boilerplate"]).text == ""


def test_words_are_counted_as_the_extractor_counts_them():
    page = (
        "<html><body><noscript><p>" + "桥梁将于下月重新开放" * 3 + "</p></noscript></body></html>"
    )
    chain = ["mark_everything_boilerplate", {"noscript_content": {"extractor": "keep_everything"}}]
    assert "桥梁" in get_extractor(chain).extract(page).text  # 30 CJK words
    assert get_extractor(chain, cjk=False).extract(page).text == ""  # one word, as Java


def test_the_default_chain_has_it_and_web2text_does_not():
    pytest.importorskip("onnxruntime", reason="onnxruntime is not installed")
    assert any(isinstance(f, NoscriptContent) for f in get_extractor("boosted").chain)
    assert not any(isinstance(f, NoscriptContent) for f in get_extractor("web2text").chain)


@pytest.mark.parametrize("nested", [False, True], ids=["siblings", "nested"])
def test_many_noscript_elements_cost_time_linear_in_the_page(nested):
    def page(n: int) -> str:
        if nested:  # libxml2 cuts the nesting at 2048: the rest is text
            return "<html><body>" + "<noscript>a few words here " * n + "</body></html>"
        return (
            "<html><body>" + "<noscript><p>a few words here</p></noscript>" * n + "</body></html>"
        )

    fill = NoscriptContent("keep_everything")

    def parsed(n: int):
        return parse_html(page(n))

    assert growth(lambda doc: fill(copy.copy(doc)), parsed, 5_000) < LINEAR_GROWTH_LIMIT
    doc = parsed(100_000)
    assert fill(doc.copy())


def test_the_noscript_markup_read_again_shows_no_iframe_fallback_text():
    # the <noscript> markup is parsed as the page is: an iframe's fallback is not shown
    page = SCRIPTED_PAGE.replace(
        "</noscript>", "<iframe>Your browser does not support frames, sorry.</iframe></noscript>"
    )
    text = extract(page, extractor=[{"noscript_content": {"extractor": "keep_everything"}}]).text
    assert PARAGRAPHS[0][:40] in text
    assert "Your browser" not in text
