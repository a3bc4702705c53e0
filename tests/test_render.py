"""Rendering: plain text with blank lines between paragraphs, and the JSON block view."""

from scrapy_boilerplate import (
    Document,
    Extractor,
    TextBlock,
    extract,
    get_extractor,
    parse_html,
    render_json,
    render_text,
)


def test_paragraphs_are_separated_by_a_blank_line_and_whitespace_collapsed():
    a = TextBlock("First  paragraph\u00a0here", is_content=True)
    b = TextBlock("Second", is_content=True)
    a.merge_next(TextBlock("merged   part"))
    doc = Document(blocks=[a, TextBlock("boilerplate"), b])
    assert render_text(doc) == "First paragraph here\n\nmerged part\n\nSecond"


def test_text_is_rendered_as_the_page_shows_it_or_with_boilerpipes_spaces_at_links():
    doc = parse_html("<body><p>Read <a href=x>the story</a>, then (<a href=y>more</a>).</p></body>")
    doc.blocks[0].is_content = True
    assert render_text(doc) == "Read the story, then (more)."
    assert render_text(doc, java_text=True) == "Read the story , then ( more )."


def test_merged_blocks_keep_each_parts_shown_text():
    first, second, third = parse_html(
        "<body><p>plain one</p><p><a href=x>link</a>, two</p><p>plain three</p></body>"
    ).blocks
    first.merge_next(second)
    first.merge_next(third)
    assert first.text == "plain one\nlink , two\nplain three"
    assert first.shown_text == "plain one\nlink, two\nplain three"
    copy = first.copy()
    first.text = "replaced"
    assert (first.shown_text, copy.shown_text) == ("replaced", "plain one\nlink, two\nplain three")


def test_boilerpipes_extractors_render_javas_text_every_other_extractor_the_shown_text():
    html = (
        "<html><body><article><p>Apple said on Monday that <a href=/x>its new phone</a>, "
        "announced in June, will ship (<a href=/y>in stores</a>) next week to buyers in "
        "forty countries, with more to follow before the end of the year.</p></article>"
        "</body></html>"
    )
    shown = "Apple said on Monday that its new phone, announced in June, will ship (in stores)"
    java = "Apple said on Monday that its new phone , announced in June, will ship ( in stores )"
    for name in ("article", "largest", "keep_everything"):
        assert get_extractor(name).java_text
        assert extract(html, extractor=name).text.startswith(java), name
    # (a chain of one named extractor is that extractor; a chain of filters is a new one)
    assert get_extractor([{"keep_everything_min_words": {"min_words": 3}}]).java_text
    for name in ("boosted", "web2text", "cetd", ["keep_everything", "comment_sections"]):
        assert not get_extractor(name).java_text
        assert extract(html, extractor=name).text.startswith(shown), name
    chosen = Extractor(get_extractor("keep_everything").chain, java_text=False)
    assert chosen.extract(html).text.startswith(shown)


def test_nothing_content_renders_as_the_empty_string():
    assert render_text(Document(blocks=[TextBlock("x")])) == ""


def test_the_json_view_lists_every_block():
    html = "<body><p>one two three</p><p><a href=x>link</a></p></body>"
    result = extract(html, extractor="keep_everything", trace=True)
    view = render_json(result.document)
    assert [b["text"] for b in view["blocks"]] == [b.text for b in result.blocks]
    assert view["blocks"][0]["num_words"] == 3
    assert result.to_dict()["text"] == result.text
    assert "blocks" in result.to_dict(blocks=True)
