"""``benchmarks.boosted_short_posts``: shortened copies of the training articles (their
first paragraphs, the headline, comments and sidebars as they were)."""

from __future__ import annotations

from scrapy_boilerplate.parse import parse_html


def paragraph(i):
    return f"Paragraph number {i} of the story tells its part in several plain words."


STORY = [paragraph(i) for i in range(5)]
PAGE = (
    "<html><body><nav><a href=/>Home</a> <a href=/news>News</a></nav><article>"
    "<h1>The headline of the story</h1>"
    + "".join(f"<p>{text}</p>" for text in STORY[:3])
    + "<h2>A subheading further down</h2><ul><li>a list item of the story</li></ul>"
    + "".join(f"<p>{text}</p>" for text in STORY[3:])
    + "</article><div class=comments><p>A reader's comment that is long enough to count.</p>"
    "</div></body></html>"
)
REFERENCE = "\n".join(
    [*STORY[:3], "A subheading further down", "a list item of the story", *STORY[3:]]
)


def texts(html):
    return [block.text for block in parse_html(html).blocks]


def test_the_copy_keeps_the_first_paragraphs_and_takes_the_rest_of_the_story_out(script):
    html, reference = script.shortened(PAGE, REFERENCE, keep=2)
    assert reference == f"{STORY[0]} {STORY[1]}"
    kept = texts(html)
    assert STORY[0] in kept and STORY[1] in kept
    for gone in (STORY[2], STORY[3], STORY[4], "A subheading further down"):
        assert gone not in kept
    assert not any("list item" in text for text in kept)
    # what is not the story stays: the navigation, the headline, the comments
    assert "The headline of the story" in kept
    assert "A reader's comment that is long enough to count." in kept
    assert any("Home" in text for text in kept)


def test_a_page_with_too_few_story_paragraphs_has_no_copy(script):
    short = PAGE.replace(f"<p>{STORY[4]}</p>", "").replace(f"<p>{STORY[3]}</p>", "")
    assert script.shortened(short, REFERENCE, keep=1) is None  # three paragraphs, not four
    assert script.shortened(PAGE, REFERENCE, keep=5) is None  # nothing would be taken out
    assert script.shortened("", REFERENCE, keep=1) is None  # does not parse


def test_each_page_keeps_one_to_three_paragraphs_by_its_id(script):
    counts = {script.kept_paragraphs(f"page-{i}") for i in range(50)}
    assert counts == {1, 2, 3}
    assert script.kept_paragraphs("page-7") == script.kept_paragraphs("page-7")


def test_only_pages_with_a_reference_text_have_a_short_copy(script):
    assert script.short_copy("p", PAGE, None) is None  # snippet-labelled pages
    copy = script.short_copy("p", PAGE, REFERENCE)
    keep = script.kept_paragraphs("p")
    assert copy is not None and copy[1] == " ".join(STORY[:keep])
