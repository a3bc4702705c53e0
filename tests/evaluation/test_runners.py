"""Extractors behind one interface; other extractors lazily, missing ones reported."""

from __future__ import annotations

import subprocess
import sys

import pytest

from scrapy_boilerplate import EXTRACTORS
from scrapy_boilerplate.evaluation.datasets import open_dataset
from scrapy_boilerplate.evaluation.runners import (
    JUSTEXT_LANGUAGES,
    OTHER_EXTRACTORS,
    Runner,
    RunnerUnavailable,
    get_runner,
    our_extractors,
)


@pytest.fixture
def budget_page(mini_dir):
    return list(open_dataset(mini_dir))[1]


def test_our_extractors_are_all_runners(budget_page):
    # 'all' is every extractor but the one that costs seconds per page, which runs by name
    assert our_extractors() == [name for name in EXTRACTORS if name != "lm"]
    for name in EXTRACTORS:
        runner = get_runner(name)
        assert runner.kind == "ours" and runner.available
        text = runner(budget_page.html, budget_page.url, budget_page.lang)
        assert isinstance(text, str)
    assert "approve the new budget" in get_runner("article")(budget_page.html)


def test_unknown_name():
    with pytest.raises(RunnerUnavailable, match="unknown extractor"):
        get_runner("no-such-extractor")


@pytest.mark.parametrize("name", OTHER_EXTRACTORS)
def test_missing_library_is_reported_not_raised(name, monkeypatch):
    # a None entry in sys.modules makes "import x" raise ImportError (submodules too, in
    # case an earlier test imported them)
    packages = ("trafilatura", "readability", "boilerpy3", "justext", "resiliparse")
    for module in [m for m in sys.modules if m.split(".")[0] in packages] + list(packages):
        monkeypatch.setitem(sys.modules, module, None)
    runner = get_runner(name)
    assert not runner.available
    assert "not installed" in runner.reason
    with pytest.raises(RunnerUnavailable):
        runner("<p>x</p>")


@pytest.mark.parametrize("name", OTHER_EXTRACTORS)
def test_other_extractors_give_text(name, budget_page):
    runner = get_runner(name)
    if not runner.available:
        pytest.skip(f"{name} is not installed")
    assert runner.kind == "other" and runner.version
    text = runner(budget_page.html, budget_page.url, "en")
    assert isinstance(text, str)
    if name != "justext":  # jusText drops paragraphs this short as boilerplate
        assert "approve the new budget" in text


def test_readability_keeps_paragraphs_apart():
    runner = get_runner("readability")
    if not runner.available:
        pytest.skip("readability-lxml is not installed")
    para = "This is a long paragraph of article text with plenty of words in it. " * 8
    html = f"<html><body><article><h1>Title</h1><p>{para}end</p><p>Next {para}</p></article></body></html>"
    text = runner(html)
    assert "endNext" not in text and "end Next" in text


def test_justext_uses_the_page_language_and_falls_back_to_english():
    runner = get_runner("justext")
    if not runner.available:
        pytest.skip("jusText is not installed")
    assert JUSTEXT_LANGUAGES["de"] == "German"
    para = (
        "Die Stadt hat am Dienstag den neuen Haushalt beschlossen, der auch die Sanierung der alten Brücke über den Fluss vorsieht und noch mehr enthält. "
        * 2
    )
    html = f"<html><body><p>{para}</p></body></html>"
    assert "Haushalt" in runner(html, None, "de")
    assert isinstance(runner(html, None, "zz"), str)  # no stoplist: English, no error
    assert isinstance(runner(html, None, None), str)


def test_lxml_floor_parses_and_extracts_nothing():
    runner = get_runner("lxml")
    assert runner.kind == "floor"
    assert runner("<html><body><p>x</p></body></html>") == ""
    # a str with an XML encoding declaration is not refused
    assert runner('<?xml version="1.0" encoding="iso-8859-1"?><html><p>é</p></html>') == ""


def test_runner_returns_empty_string_for_none():
    assert Runner("none", "other", lambda html, url, lang: None)("<p>x</p>") == ""


def test_importing_the_evaluation_imports_no_scrapy_and_no_other_extractor():
    code = (
        "import sys, scrapy_boilerplate.evaluation, scrapy_boilerplate.evaluation.cli;"
        "bad = [m for m in sys.modules if m.split('.')[0] in "
        "('scrapy', 'twisted', 'torch', 'trafilatura', 'readability', 'boilerpy3', "
        "'justext', 'resiliparse')]; print(bad)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_trafilatura_without_comments_leaves_the_readers_comments_out():
    default, no_comments = get_runner("trafilatura"), get_runner("trafilatura_no_comments")
    if not default.available:
        pytest.skip("trafilatura is not installed")
    para = "The council approved the new harbour budget after a long debate on costs. " * 6
    comment = "I think the council should have asked the traders first, honestly. " * 3
    html = (
        f"<html><body><article><h1>Budget</h1><p>{para}</p></article>"
        f'<div id="comments"><div class="comment"><p>{comment}</p></div></div></body></html>'
    )
    assert "asked the traders" in default(html)
    assert "asked the traders" not in no_comments(html)
    assert "harbour budget" in no_comments(html)


def test_a_site_memory_runner_reads_each_set_as_a_crawl_of_its_own(mini_dir, bench_dir):
    from scrapy_boilerplate.evaluation.datasets import open_dataset
    from scrapy_boilerplate.evaluation.evaluate import evaluate_runner
    from scrapy_boilerplate.site_memory import site_of_url

    runner = get_runner("boosted+site_memory")
    assert runner.name == "boosted+site_memory" and runner.site_memory is not None
    evaluate_runner(open_dataset(mini_dir), runner, n_bootstrap=0)
    assert len(runner.site_memory) == 2  # example.org and example.cn
    bench = open_dataset(bench_dir)
    evaluate_runner(bench, runner, n_bootstrap=0)  # mini's sites forgotten
    assert len(runner.site_memory) == len({site_of_url(p.url) for p in bench.iter_pages()} - {None})
    assert get_runner("boosted").site_memory is None
    with pytest.raises(RunnerUnavailable):
        get_runner("trafilatura+site_memory")
