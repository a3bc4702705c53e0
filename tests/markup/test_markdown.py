"""Markdown of the content: CommonMark (tables as GFM), read back by markdown-it-py to
the same structure, with the same text as the plain output."""

from __future__ import annotations

import pytest
from markdown_it import MarkdownIt

from scrapy_boilerplate import extract

from ..helpers import LINEAR_GROWTH_LIMIT, growth

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


def _markdown(body: str) -> str:
    return extract(
        f"<html><body>{body}</body></html>", extractor="keep_everything", formats=("markdown",)
    ).markdown


def test_a_huge_colspan_gives_at_most_the_standards_thousand_columns():
    # colspan="100000000" made 100 MB of Markdown from a page of a few hundred bytes
    md = _markdown("<table><tr><td colspan='100000000'>Rain</td></tr><tr><td>a</td></tr></table>")
    header, delimiter = md.splitlines()[:2]
    assert delimiter == "|" + "---|" * 1000
    assert len(md) < 10_000


def test_a_table_of_ragged_rows_gives_markdown_linear_in_the_page():
    # one row of n cells over n rows of one: padding every row to the widest made n * n
    # cells; past a few empty cells per cell only the header row is padded (GFM gives the
    # shorter rows' missing cells)
    def page(n: int) -> str:
        wide = "<tr>" + "".join(f"<td>c{i}</td>" for i in range(n)) + "</tr>"
        return "<table>" + wide + "<tr><td>one cell</td></tr>" * n + "</table>"

    for n in (300, 1200):
        html = page(n)
        assert len(_markdown(html)) < 40 * len(html)
    table = [t for t in tokens(_markdown(page(300))) if t.type == "th_open"]
    assert len(table) == 300  # still one table, as wide as its widest row
    assert growth(_markdown, page, 1000) < LINEAR_GROWTH_LIMIT


def test_ordinary_ragged_tables_are_padded_to_their_widest_row():
    md = _markdown("<table><tr><th>Town</th><th>Rain</th></tr><tr><td>Northport</td></tr></table>")
    assert md.splitlines() == ["| Town | Rain |", "|---|---|", "| Northport |  |"]


def test_a_long_list_start_is_nine_digits_and_indents_its_items_that_far():
    md = _markdown(f"<ol start='{'9' * 5000}'><li>the coast road<br>and the bridge</li></ol>")
    assert md.splitlines()[0] == "999999999. the coast road\\"
    assert [t.type for t in tokens(md)][0] == "ordered_list_open"


def test_text_inside_nested_inline_elements_is_collapsed_once_not_once_per_level(monkeypatch):
    # each level of <b>, <i>, <a> squashed the whitespace of everything inside it again:
    # 32 levels around 16 MB of words took 10 s. The pieces are collapsed once, at the end
    from scrapy_boilerplate.markup import markdown

    squashed = []

    def counting(text: str) -> str:
        squashed.append(len(text))
        return squash(text)

    squash = markdown._squash
    monkeypatch.setattr(markdown, "_squash", counting)
    words = "a  storm   word " * 2_000
    html = "<p>" + "<b><i>" * 15 + words + "</i></b>" * 15 + " after it.</p>"
    md = _markdown(html)
    assert md.startswith("***" * 15 + "a storm word a storm word") and md.endswith("after it.")
    assert "  " not in md  # the whitespace collapsed all the same
    assert sum(squashed) < 4 * len(words)  # (it was 30 times the words)
