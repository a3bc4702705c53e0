"""``benchmarks.boosted_aged_markup``: the copies of training pages in the markup of a page
of 2008 (how copies join the training: tests/evaluation/test_training_copies.py)."""

from __future__ import annotations

import re

from scrapy_boilerplate.parse import parse_html


def test_html5_sections_become_divs_and_the_text_stays(script):
    html = (
        "<HEADER class=top><nav><a href=/>Home</a></nav></HEADER><main><article><section>"
        "<p>Story text <time datetime=2024>today</time> and <mark>this</mark>.</p>"
        "</section><figure><figcaption>A caption</figcaption></figure></article></main>"
        "<footer>Copyright</footer><headers>unknown tag kept</headers>"
    )
    old = script.aged(html)
    assert "<div class=top>" in old and "</div>" in old
    for tag in ("header", "nav", "main", "article", "section", "figure", "footer", "time"):
        assert not re.search(rf"</?{tag}[\s/>]", old, re.IGNORECASE)
    assert "<span datetime=2024>today</span>" in old and "<span>this</span>" in old
    assert "<headers>" in old  # only whole tag names

    # the same words (the blocks may differ: an unknown tag such as <time> ends a block in
    # boilerpipe's segmentation, a <span> does not)
    def words(page):
        return " ".join(b.text for b in parse_html(page).blocks).replace(" .", ".").split()

    assert words(old) == words(html)


def test_a_page_has_an_aged_copy_only_when_its_markup_changes(script):
    assert script.aged_copy("a", "<article><p>one</p></article>", "one") == (
        "<div><p>one</p></div>",
        "one",  # the same reference
    )
    assert script.aged_copy("b", "<div><p>two</p></div>", "two") is None
