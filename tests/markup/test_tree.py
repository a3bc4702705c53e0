"""The content tree: the content blocks' elements, copied with a few safe tags, links
made absolute, everything else unwrapped or left out."""

from __future__ import annotations

import pytest
from lxml import etree

from scrapy_boilerplate import extract
from scrapy_boilerplate.markup.tree import MAX_DEPTH, content_tree, safe_url
from scrapy_boilerplate.parse import parse_html

from ..helpers import LINEAR_GROWTH_LIMIT, growth


def tree_of(html: str, url: str | None = "https://news.example/a/b.html", keep=lambda b: True):
    doc = parse_html(html, url)
    for block in doc.blocks:
        block.is_content = keep(block)
    return etree.tostring(content_tree(doc), encoding="unicode")


def test_only_the_content_blocks_elements_are_copied():
    html = "<body><nav><a href='/'>Home</a></nav><p>Kept <b>bold</b> text.</p><div>Dropped</div></body>"
    out = tree_of(html, keep=lambda b: "Kept" in b.text)
    assert out == "<div><p>Kept <b>bold</b> text.</p></div>"


def test_an_elements_own_text_and_a_childs_tail_are_taken_by_their_own_blocks():
    # the <div>'s text, the <p>'s text and the <p>'s tail are three blocks; the tail
    # ("Share this article") belongs to the <div> as its text does, yet is boilerplate
    html = "<body><div>The story so far.<p>It goes on.</p>Share this article</div></body>"
    out = tree_of(html, keep=lambda b: "Share" not in b.text)
    assert out == "<div><div>The story so far.<p>It goes on.</p></div></div>"
    # and the other way round: the element's own text is boilerplate, the tail content
    out = tree_of(html, keep=lambda b: "The story" not in b.text)
    assert out == "<div><div><p>It goes on.</p>Share this article</div></div>"


def test_line_breaks_beside_boilerplate_text_are_left_out_and_others_kept():
    html = (
        "<body><div>Advert line<br>First line of the story<br><br>"
        "<a href='/a'>a link</a><br><a href='/b'>another</a><br>Follow us</div></body>"
    )
    out = tree_of(html, keep=lambda b: not {"Advert line", "Follow us"} & {b.text})
    assert out == (
        '<div><div>First line of the story<br/><br/><a href="https://news.example/a">a link</a>'
        '<br/><a href="https://news.example/b">another</a></div></div>'
    )


def test_the_texts_of_blocks_a_filter_removed_are_left_out():
    # boilerpipe's filters may take blocks out of the document: their texts are in no block
    doc = parse_html("<body><div>Lorem ipsum<p>dolor sit</p>The story itself.</div></body>")
    story = doc.blocks[-1]
    story.is_content = True
    doc.blocks[:] = [story]
    out = etree.tostring(content_tree(doc), encoding="unicode")
    assert out == "<div><div>The story itself.</div></div>"


def test_layout_wrappers_around_one_container_are_unwrapped():
    # a story 5 containers deep comes out in one <div>; siblings stay apart
    html = (
        "<body><div><div><section><div><article><p>Story text.</p></article></div>"
        "</section></div> <div><div>Second part.</div></div></div></body>"
    )
    assert (
        tree_of(html)
        == "<div><div><div><p>Story text.</p></div> <div>Second part.</div></div></div>"
    )


def test_the_space_between_two_texts_stays_when_their_wrappers_go():
    html = "<body><div>first</div><div> <div>second</div> </div>third</body>"
    # the wrapper of "second" goes; the spaces it held stay, so the text reads as three words
    assert tree_of(html) == "<div><div>first</div> <div>second</div> third</div>"


def test_structure_around_content_is_kept():
    html = (
        "<body><ul><li>one</li><li>two</li></ul><table><tr><td>a</td><td>b</td></tr></table></body>"
    )
    assert tree_of(html) == (
        "<div><ul><li>one</li><li>two</li></ul><table><tr><td>a</td><td>b</td></tr></table></div>"
    )


def test_unknown_tags_are_unwrapped_and_block_containers_become_divs():
    html = "<body><section><span class='x' style='color:red'>Hello</span> <font>world</font></section></body>"
    assert tree_of(html) == "<div><div>Hello world</div></div>"


def test_scripts_styles_and_attributes_never_reach_the_tree():
    html = (
        "<body><p onclick='evil()' style='x'>Text <script>alert(1)</script>"
        "<a href='javascript:alert(1)' onmouseover='x'>link</a></p></body>"
    )
    out = tree_of(html)
    assert "script" not in out and "onclick" not in out and "javascript" not in out
    assert out == "<div><p>Text <a>link</a></p></div>"


def test_links_and_images_are_made_absolute_from_base():
    html = (
        "<head><base href='https://cdn.example/root/'></head><body>"
        "<p>See <a href='page.html'>this</a> <img src='pic.png' alt='A picture'></p></body>"
    )
    out = tree_of(html)
    assert '<a href="https://cdn.example/root/page.html">this</a>' in out
    assert '<img src="https://cdn.example/root/pic.png" alt="A picture"/>' in out


def test_figure_images_follow_their_caption():
    html = (
        "<body><figure><a href='/big.jpg'><img src='/small.jpg' alt='Storm'></a>"
        "<figcaption>The storm</figcaption></figure></body>"
    )
    assert tree_of(html) == (
        '<div><figure><img src="https://news.example/small.jpg" alt="Storm"/>'
        "<figcaption>The storm</figcaption></figure></div>"
    )


def test_no_content_gives_an_empty_tree():
    assert tree_of("<p>text</p>", keep=lambda b: False) == "<div/>"


def test_deep_pages_do_not_exhaust_the_stack():
    # deeper than Python's recursion limit, within libxml2's depth limit of 2,048
    html = "<body>" + "<div>" * 1800 + "<p>deep text</p>" + "</div>" * 1800 + "</body>"
    assert "deep text" in tree_of(html)


def test_the_tree_is_at_most_max_depth_deep_and_deeper_text_is_kept():
    # the renderers walk the tree recursively: past MAX_DEPTH, elements are unwrapped
    html = "<body>" + "<blockquote>" * 1500 + "<p>deep <b>text</b></p>" + "</blockquote>" * 1500
    doc = parse_html(html + "</body>")
    for block in doc.blocks:
        block.is_content = True
    tree = content_tree(doc)
    assert max(len(list(e.iterancestors())) for e in tree.iter()) == MAX_DEPTH
    assert "".join(tree.itertext()) == "deep text"


def all_content(html):
    """The parsed page, every block content (what the timed copy starts from)."""
    doc = parse_html(html)
    for block in doc.blocks:
        block.is_content = True
    return doc


def test_a_paragraph_of_line_breaks_is_copied_in_linear_time():
    # each piece of text went after the last child, found by counting every child
    page = lambda n: all_content("<body><p>" + "a<br>" * n + "</p></body>")  # noqa: E731
    assert growth(content_tree, page, 8_000) < LINEAR_GROWTH_LIMIT


def test_unsafe_urls_are_refused():
    base = "https://news.example/"
    assert safe_url("/a", base) == "https://news.example/a"
    assert safe_url("mailto:x@example.com", base) == "mailto:x@example.com"
    for url in (
        "javascript:alert(1)",
        " JaVaScRiPt:alert(1)",
        "java\tscript:alert(1)",
        "data:text/html;base64,PHNjcmlwdD4=",
        "vbscript:msgbox(1)",
        "",
    ):
        assert safe_url(url, base) is None, url
    assert safe_url("javascript:alert(1)", None) is None


def test_an_address_longer_than_any_server_takes_is_no_link_but_its_text_stays():
    long_url = "https://news.example/" + "a" * 70_000
    assert safe_url(long_url[:65_536], None) == long_url[:65_536]
    assert safe_url(long_url, None) is None
    html = f'<body><p>See <a href="{long_url}">the report</a> on the storm.</p></body>'
    result = extract(html, formats=("markdown", "html"))
    assert result.markdown == "See the report on the storm."
    assert "href" not in result.html and "the report" in result.html


def test_urls_that_cannot_be_parsed_are_refused_and_bases_that_cannot_are_ignored():
    assert safe_url("http://[::1", "https://news.example/") is None
    assert safe_url("//[x/a.png", "https://news.example/") is None
    assert safe_url("http://[::1", None) is None
    # a base urllib cannot parse is no base: the link stays as the page wrote it
    assert safe_url("/a", "http://[::1/") == "/a"
    assert safe_url("https://ok.example/a", "http://[::1/") == "https://ok.example/a"


def test_a_base_element_that_cannot_be_resolved_is_ignored():
    html = "<head><base href='http://[::1'></head><body><p><a href='p.html'>this</a></p></body>"
    assert '<a href="https://news.example/a/p.html">this</a>' in tree_of(html)


def test_a_paragraph_of_unwrapped_spans_is_copied_in_linear_time():
    # each span's text was appended to the paragraph's text, which lxml copies whole
    page = lambda n: all_content("<body><p>" + "<span>word </span>" * n + "</p></body>")  # noqa: E731
    assert growth(content_tree, page, 8_000) < LINEAR_GROWTH_LIMIT


@pytest.mark.parametrize(
    ("attribute", "given", "kept"),
    [
        ("colspan", "3", "3"),
        ("colspan", "007", "7"),
        ("colspan", "100000000", "1000"),  # the HTML standard reads anything above as 1000
        pytest.param("colspan", "9" * 5000, "1000", id="colspan-5000-digits"),  # int() reads 4300
        ("rowspan", "70000", "65534"),
        ("colspan", "²", None),  # a digit to str.isdigit, not to int()
        ("colspan", "-2", None),
        ("colspan", "two", None),
    ],
)
def test_table_spans_are_kept_as_digits_within_the_standards_bounds(attribute, given, kept):
    page = f"<table><tr><td {attribute}='{given}'>Rain in the hills</td></tr></table>"
    tree = content_tree(all_content(page))
    assert tree.find(".//td").get(attribute) == kept


def test_a_list_start_is_at_most_nine_digits_as_commonmark_reads():
    page = f"<ol start='{'9' * 5000}'><li>the coast road</li></ol><ol start='12'><li>x</li></ol>"
    tree = content_tree(all_content(page))
    assert [ol.get("start") for ol in tree.iter("ol")] == ["999999999", "12"]
