"""The experiments that score two texts of every page (``benchmarks.text_pairs``): the
stopword list emptied (``unknown_language``) and the headline put first
(``headline_convention``), on the tiny fixture set (no real data)."""

from __future__ import annotations

import importlib

from scrapy_boilerplate.neural import textstats


def test_a_pair_of_equal_texts_changes_nothing_and_a_variant_is_scored(fixtures_dir, capsys):
    text_pairs = importlib.import_module("benchmarks.text_pairs")
    same = text_pairs.compare_text_pairs(
        str(fixtures_dir), "mini", lambda page: (page.main_text, page.main_text), "changed"
    )
    assert same == [0.0]
    halved = text_pairs.compare_text_pairs(
        str(fixtures_dir),
        "mini",
        lambda page: (page.main_text, page.main_text[: len(page.main_text) // 2]),
        "changed",
    )
    assert halved[0] < 0  # half of the reference recalls half of it
    out = capsys.readouterr().out
    assert out.count("mini ") == 2 and "mean change over 1 sets" in out


def test_the_stopword_list_is_emptied_only_inside_the_block():
    unknown_language = importlib.import_module("benchmarks.unknown_language")
    texts = ["the cat and the dog", "der Hund und die Katze"]
    joined = " ".join(texts)
    starts = [0, len(texts[0]) + 1]
    before = textstats._stopword_counts(texts, joined, starts).tolist()
    with unknown_language.no_stopwords():
        assert textstats._stopword_counts(texts, joined, starts).tolist() == [0.0, 0.0]
    assert textstats._stopword_counts(texts, joined, starts).tolist() == before == [3.0, 3.0]


def test_both_experiments_run_on_a_set(fixtures_dir, capsys):
    for name in ("unknown_language", "headline_convention"):
        module = importlib.import_module(f"benchmarks.{name}")
        assert module.main(["--data", str(fixtures_dir), "--sets", "mini"]) == 0
    out = capsys.readouterr().out
    assert "text changed" in out and "headline added" in out
