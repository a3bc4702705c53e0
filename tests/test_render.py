"""Rendering: plain text with blank lines between paragraphs, and the JSON block view."""

from scrapy_boilerplate import Document, TextBlock, extract, render_json, render_text


def test_paragraphs_are_separated_by_a_blank_line_and_whitespace_collapsed():
    a = TextBlock("First  paragraph\u00a0here", is_content=True)
    b = TextBlock("Second", is_content=True)
    a.merge_next(TextBlock("merged   part"))
    doc = Document(blocks=[a, TextBlock("boilerplate"), b])
    assert render_text(doc) == "First paragraph here\n\nmerged part\n\nSecond"


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
