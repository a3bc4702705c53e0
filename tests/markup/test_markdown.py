"""Markdown of the content: CommonMark (tables as GFM), read back by markdown-it-py to
the same structure, with the same text as the plain output."""

from __future__ import annotations

import pytest
from markdown_it import MarkdownIt

from scrapy_boilerplate import extract

PAGE = """<html><head><title>Storm</title></head><body>
<nav><a href="/">Home</a> | <a href="/world">World</a> | <a href="/sport">Sport</a></nav>
<article>
<h1>Storm hits the <em>northern</em> coast</h1>
<p>A powerful storm hit the <a href="/coast">northern coast</a> on Tuesday night, bringing
heavy rain and winds of more than a hundred kilometres an hour to several towns.</p>
<h2>What happened in the night</h2>
<ul><li>Emergency services said hundreds of homes lost power in the night and morning.</li>
<li>Several roads were closed <b>because of fallen trees</b> and flooding in the region:
<ol><li>the coast road between the two harbours,</li><li>the old bridge over the river.</li></ol></li></ul>
<blockquote><p>It was the worst storm in twenty years, the harbour master said on Wednesday.</p></blockquote>
<table><tr><th>Town</th><th>Rain (mm)</th></tr><tr><td>Northport on the coast</td><td>120</td></tr>
<tr><td>Southby in the hills</td><td>85</td></tr></table>
<pre><code>rain = 120  # mm, *not* emphasis</code></pre>
<p>Residents said they would need weeks to repair the damage to 1,000 houses * and [more].</p>
</article>
<footer>Copyright 2026 <a href="/about">About</a></footer>
</body></html>"""


def tokens(markdown: str):
    return MarkdownIt("commonmark").enable("table").parse(markdown)


def result(extractor="keep_everything"):
    """The page's Markdown; the structure tests keep every block (which blocks are content
    is the chain's business, not the renderer's)."""
    return extract(
        PAGE, "https://news.example/2026/storm.html", extractor=extractor, formats=("markdown",)
    )


def test_headings_lists_quotes_tables_and_code_survive_a_commonmark_parser():
    md = result().markdown
    kinds = [t.type for t in tokens(md)]
    assert kinds.count("heading_open") == 2
    assert "bullet_list_open" in kinds and "ordered_list_open" in kinds
    assert "blockquote_open" in kinds and "table_open" in kinds
    assert "fence" in kinds or "code_block" in kinds
    headings = [t.tag for t in tokens(md) if t.type == "heading_open"]
    assert headings == ["h1", "h2"]


def test_links_are_absolute_and_emphasis_is_kept():
    md = result().markdown
    assert "[northern coast](https://news.example/coast)" in md
    assert "# Storm hits the *northern* coast" in md
    assert "**because of fallen trees**" in md


def test_the_nested_list_is_nested():
    html = MarkdownIt("commonmark").render(result().markdown)
    assert "<ul>\n<li>" in html and "<ol>\n<li>the coast road" in html
    assert html.index("<ol>") > html.index("<ul>")  # inside the bullet list


def test_markdown_syntax_in_the_text_is_escaped():
    md = result().markdown
    assert r"1,000 houses \* and \[more\]" in md
    rendered = MarkdownIt("commonmark").render(md)
    assert "1,000 houses * and [more]" in rendered  # text again, not syntax


@pytest.mark.parametrize("extractor", ["keep_everything", "article"])
def test_the_markdown_carries_the_words_of_the_text(extractor):
    r = result(extractor)
    plain = MarkdownIt("commonmark").enable("table").render(r.markdown)
    from lxml import html as lxml_html

    words_md = lxml_html.fromstring(plain).text_content().split()
    assert sorted(words_md) == sorted(r.text.split())


def test_no_content_gives_empty_markdown_and_no_request_gives_none():
    assert extract("", formats=("markdown",)).markdown == ""
    assert extract(PAGE).markdown is None
    assert "markdown" not in extract(PAGE).to_dict()
    assert "# Storm" in extract(PAGE, formats=["markdown"]).to_dict()["markdown"]
