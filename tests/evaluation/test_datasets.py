"""The dataset readers: both layouts, lazy, UTF-8 whatever the page declares."""

from __future__ import annotations

import types

import pytest

from scrapy_boilerplate.evaluation import datasets
from scrapy_boilerplate.evaluation.datasets import (
    ArticleBenchmarkDataset,
    DatasetError,
    JsonlDataset,
    Page,
    find_datasets,
    open_dataset,
)


def test_jsonl_dataset_reads_every_field(mini_dir):
    ds = open_dataset(mini_dir)
    assert isinstance(ds, JsonlDataset)
    assert ds.name == "mini"
    pages = list(ds)
    assert [p.id for p in pages] == ["news-1", "news-2", "zh-1"]
    first = pages[0]
    assert isinstance(first, Page)
    assert first.url == "https://example.org/news/1"
    assert first.title == "Café reopens"
    assert first.lang == "en"
    assert first.main_text.startswith("Café reopens after renovation\n\n")
    assert first.with_snippets == ("The café on Main Street reopened", "see the new rooms")
    assert first.without_snippets == ("Cookie settings",)
    assert first.has_snippets
    assert first.extras == {"source": "mini", "page_type": "article"}
    assert pages[1].url is None
    assert not pages[2].has_snippets  # empty lists
    assert ds.count() == 3


def test_pages_are_utf8_whatever_meta_charset_says(mini_dir):
    news1, news2, zh = open_dataset(mini_dir)
    # news-1 declares windows-1252 and zh-1 gbk; both are stored as UTF-8
    assert 'charset="windows-1252"' in news1.html
    assert "The café on Main Street" in news1.html
    assert "城市绿化取得新进展" in zh.html
    assert isinstance(news2.html, str) and "<html>" in news2.html  # the plain .html file


def test_reader_is_lazy(mini_dir, monkeypatch):
    reads = []
    original = datasets.read_page_bytes

    def counting(path):
        reads.append(path.name)
        return original(path)

    monkeypatch.setattr(datasets, "read_page_bytes", counting)
    pages = open_dataset(mini_dir).iter_pages()
    assert isinstance(pages, types.GeneratorType)
    assert reads == []
    next(pages)
    assert reads == ["news-1.html.gz"]


def test_iter_labels_reads_no_page(mini_dir, monkeypatch):
    monkeypatch.setattr(datasets, "read_page_bytes", lambda path: pytest.fail("read a page"))
    labels = list(open_dataset(mini_dir).iter_labels())
    assert [p.html for p in labels] == ["", "", ""]
    assert labels[2].lang == "zh"


def test_limit(mini_dir):
    assert [p.id for p in open_dataset(mini_dir).iter_pages(limit=2)] == ["news-1", "news-2"]
    assert list(open_dataset(mini_dir).iter_pages(limit=0)) == []


def test_snippet_only_set_has_no_main_text(snippets_dir):
    pages = list(open_dataset(snippets_dir))
    assert [p.main_text for p in pages] == [None, None]
    assert pages[0].with_snippets == ("the repair of the old bridge", "Council members debated")


def test_article_benchmark_layout(bench_dir):
    ds = open_dataset(bench_dir)
    assert isinstance(ds, ArticleBenchmarkDataset)
    pages = list(ds)
    assert [p.id for p in pages] == ["a1", "a2"]
    assert pages[0].url == "https://example.org/budget"
    assert pages[0].main_text.startswith("The city council voted on Tuesday")
    assert "<h1>Council approves budget</h1>" in pages[0].html
    assert "The café on Main Street" in pages[1].html
    assert pages[0].with_snippets is None
    assert ds.count() == 2


def test_find_datasets_expands_a_folder_of_sets(fixtures_dir, mini_dir):
    names = [d.name for d in find_datasets([fixtures_dir])]
    assert names == ["bench", "mini", "snippets"]
    assert [d.name for d in find_datasets([mini_dir])] == ["mini"]


def test_not_a_dataset(tmp_path):
    with pytest.raises(DatasetError):
        open_dataset(tmp_path)
    with pytest.raises(DatasetError):
        find_datasets([tmp_path])
    with pytest.raises(DatasetError):
        find_datasets([tmp_path / "missing"])


def test_broken_truth_file(tmp_path):
    (tmp_path / "truth.jsonl").write_text('{"id": "1"}\nnot json\n', encoding="utf-8")
    (tmp_path / "pages").mkdir()
    (tmp_path / "pages" / "1.html").write_text("<p>x</p>", encoding="utf-8")
    pages = open_dataset(tmp_path).iter_pages()
    assert next(pages).html == "<p>x</p>"  # found without page_file, by id
    with pytest.raises(DatasetError, match="truth.jsonl:2"):
        next(pages)
