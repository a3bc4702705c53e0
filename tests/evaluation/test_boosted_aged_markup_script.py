"""``benchmarks.boosted_aged_markup``: the copies of training pages in the markup of a page
of 2008, and how they join the training for one run only."""

from __future__ import annotations

import importlib
import re
from types import SimpleNamespace

import pytest

from benchmarks import grouped_cv
from scrapy_boilerplate.parse import parse_html
from scrapy_boilerplate.training import boosted as training_module
from scrapy_boilerplate.training.dataset import site_groups


@pytest.fixture(scope="module")
def script():
    # the benchmarks are modules of the checkout (python -m benchmarks.boosted_aged_markup)
    return importlib.import_module("benchmarks.boosted_aged_markup")


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


def test_each_page_is_followed_by_its_aged_copy_when_the_markup_changes(script):
    jobs = [
        ("set", "a", "<article><p>one</p></article>", "one", (), ()),
        ("set", "b", "<div><p>two</p></div>", "two", (), ()),
    ]
    out = list(script.with_aged_copies(jobs))
    assert [(job[1], job[2]) for job in out] == [
        ("a", "<article><p>one</p></article>"),
        ("a#aged", "<div><p>one</p></div>"),
        ("b", "<div><p>two</p></div>"),
    ]
    assert out[1][3:] == jobs[0][3:]  # the same reference text and snippets


def test_a_copy_is_in_its_pages_site_and_the_patches_end_with_the_run(script, tmp_path):
    own_jobs, own_groups = training_module._jobs, grouped_cv.site_groups
    with script.aged_copies():
        assert training_module._jobs is not own_jobs
        assert grouped_cv.site_groups is script.copies_in_their_pages_sites
    assert training_module._jobs is own_jobs and grouped_cv.site_groups is own_groups
    corpus = SimpleNamespace(datasets=["x", "x"], page_ids=["p1", "p1#aged"])
    sites = script.copies_in_their_pages_sites([], corpus)
    assert sites == site_groups([], SimpleNamespace(datasets=["x", "x"], page_ids=["p1", "p1"]))
    assert corpus.page_ids == ["p1", "p1#aged"]
