"""The annotated view: the whole page as an HTML document, each block's text marked content
or boilerplate with the filter that decided it, safe to open in a browser."""

from __future__ import annotations

from lxml import html as lxml_html

from scrapy_boilerplate import get_extractor
from scrapy_boilerplate.cli import main

from ..helpers import LINEAR_GROWTH_LIMIT, growth

PAGE = """<html><head><title>Storm</title><script>alert("page script")</script>
<style>body { display: none }</style></head><body>
<nav><a href="/">Home</a> | <a href="javascript:alert(2)" onclick="steal()">World</a></nav>
<article><h1>Storm hits the coast</h1>
<p>A powerful storm hit the northern coast on Tuesday night, bringing heavy rain and winds
of more than a hundred kilometres an hour to several towns along the shore.</p>
<p>Emergency services said <b>hundreds of homes</b> lost power, and several roads were
closed because of fallen trees and flooding in the low-lying parts of the region.</p>
<iframe src="https://ads.example/frame"></iframe><img src="/storm.jpg" onerror="steal()" alt="The coast">
</article>
<footer>Copyright 2026 <a href="/about">About us</a></footer></body></html>"""


def annotated(page=PAGE, extractor="boosted"):
    return get_extractor(extractor).annotate(page, "https://news.example/2026/storm.html")


def spans(document: str, kind: str) -> str:
    tree = lxml_html.fromstring(document)
    return " ".join(" ".join(s.text_content().split()) for s in tree.find_class(kind))


def test_content_and_boilerplate_are_marked_with_the_filter_that_decided():
    doc = annotated()
    assert doc.startswith("<!DOCTYPE html>")
    content, boilerplate = spans(doc, "sb-content"), spans(doc, "sb-boilerplate")
    assert "A powerful storm hit the northern coast" in content
    assert "hundreds of homes" in content  # inside its <b>
    assert "Home" in boilerplate and "Copyright 2026" in boilerplate
    assert "decided by boosted_labeler" in doc
    assert "boosted: 2 of 5 blocks content" in doc


def test_any_chain_can_be_annotated():
    doc = annotated(extractor=["keep_everything"])
    assert "Copyright 2026" in spans(doc, "sb-content")
    assert "decided by" in doc


def test_no_script_style_frame_handler_or_javascript_url_of_the_page_survives():
    doc = annotated().lower()
    for bad in ("page script", "steal()", "javascript:", "<iframe", "display: none", "onclick"):
        assert bad not in doc
    # links and images are kept, absolute
    assert 'href="https://news.example/about"' in doc
    assert 'src="https://news.example/storm.jpg"' in doc


def test_every_word_of_every_block_is_in_the_view():
    extraction = get_extractor().extract(PAGE, "https://news.example/", trace=True)
    shown = spans(annotated(), "sb-content") + " " + spans(annotated(), "sb-boilerplate")
    for block in extraction.blocks:
        for word in block.text.split():
            assert word.strip(".,") in shown


def test_a_childs_tail_is_marked_as_its_own_block_not_as_its_parents_text():
    # the <div>'s own text and the <p>'s tail belong to the <div>, in two blocks
    page = (
        "<body><div>The first paragraph of the story, long enough to read as text here."
        "<p>The second paragraph of the story goes on with more words of the same.</p>"
        "Share this article</div></body>"
    )
    story = ["keep_everything", {"min_words": {"min_words": 5}}]
    doc = get_extractor(story).annotate(page)
    content, boilerplate = spans(doc, "sb-content"), spans(doc, "sb-boilerplate")
    assert "The first paragraph" in content and "The first paragraph" not in boilerplate
    assert "Share this article" in boilerplate and "Share" not in content


def test_a_block_of_many_inline_elements_names_its_filter_once_in_linear_time():
    def page(n: int) -> str:
        return "<html><body><p>" + "<b>storm</b> word " * n + "</p></body></html>"

    doc = annotated(page(500), extractor=["keep_everything"])
    assert doc.count(" title=") == 1  # on the block's first span only
    extractor = get_extractor(["keep_everything"])
    assert growth(extractor.annotate, page, 4000) < LINEAR_GROWTH_LIMIT


def test_bad_input_gives_a_document_that_says_why():
    extractor = get_extractor()
    assert "No main text: binary" in extractor.annotate(b"\x89PNG\r\n\x1a\n" + bytes(200))
    assert "No main text: empty_input" in extractor.annotate("")
    deep = "<html><body>" + "<div>" * 100_000 + "<p>deep story words here</p></body></html>"
    assert "<!DOCTYPE html>" in extractor.annotate(deep)


def test_the_command_line_writes_the_view(tmp_path, capsys):
    page = tmp_path / "storm.html"
    page.write_text(PAGE, encoding="utf-8")
    assert main(["extract", "--format", "annotated", str(page)]) == 0
    out = capsys.readouterr().out
    assert out.startswith("<!DOCTYPE html>") and "sb-content" in out
