"""Running extractors over a dataset: scores, failures, snippet-only sets, worst pages."""

from __future__ import annotations

import json
import math

import pytest

from scrapy_boilerplate.evaluation.datasets import open_dataset
from scrapy_boilerplate.evaluation.evaluate import (
    PageResult,
    evaluate_dataset,
    evaluate_runner,
    summarize_timing,
)
from scrapy_boilerplate.evaluation.report import render, to_data
from scrapy_boilerplate.evaluation.runners import Runner, get_runner


def _truth_runner(dataset):
    truth = {p.html: p.main_text for p in dataset}
    return Runner("oracle", "ours", lambda html, url, lang: truth[html])


def test_a_perfect_extractor_scores_one(mini_dir):
    ds = open_dataset(mini_dir)
    result = evaluate_runner(ds, _truth_runner(ds), n_bootstrap=50)
    s = result.shingles
    assert (s.pages, s.precision, s.recall, s.f1, s.accuracy) == (3, 1.0, 1.0, 1.0, 1.0)
    assert result.failures == 0
    assert len(result.pages) == 3
    assert result.snippets.recall == 1.0 and result.snippets.precision == 1.0
    assert result.timing.median_ms >= 0


def test_failures_are_counted_and_the_run_goes_on(mini_dir):
    ds = open_dataset(mini_dir)
    truth = {p.html: p.main_text for p in ds}

    def flaky(html, url, lang):
        if "windows-1252" in html:
            raise RuntimeError("boom")
        return truth[html]

    result = evaluate_runner(ds, Runner("flaky", "other", flaky), n_bootstrap=0)
    assert result.failures == 1
    failed = result.pages[0]
    assert failed.error == "RuntimeError: boom"
    # the failed page counts as an empty prediction: recall 0, precision not averaged
    assert failed.score.recall == 0.0 and failed.score.precision is None
    # recall (0 + 1 + 1) / 3 = 2/3; precision (1 + 1) / 2 = 1
    assert result.shingles.recall == pytest.approx(2 / 3)
    assert result.shingles.precision == 1.0


def test_tokens_auto_uses_cjk_for_chinese_pages(mini_dir):
    ds = open_dataset(mini_dir)
    result = evaluate_dataset(ds, [get_runner("article")], tokens="auto", n_bootstrap=0)
    assert result.cjk_pages == 1 and result.text_pages == 3
    assert [p.tokens for p in result.runners[0].pages] == ["plain", "plain", "cjk"]
    assert "CJK-aware" in result.tokens_label and "1 of 3" in result.tokens_label
    plain = evaluate_dataset(ds, [get_runner("article")], tokens="plain", n_bootstrap=0)
    assert plain.cjk_pages == 0 and plain.tokens_label.startswith("plain")
    with pytest.raises(ValueError):
        evaluate_dataset(ds, [], tokens="words")


def test_snippet_only_set(snippets_dir):
    result = evaluate_dataset(open_dataset(snippets_dir), [get_runner("article")], n_bootstrap=0)
    assert (result.pages, result.text_pages, result.snippet_pages) == (2, 0, 2)
    r = result.runners[0]
    assert r.shingles is None
    assert r.snippets.pages == 2 and r.snippets.tp + r.snippets.fn == 3


def test_unavailable_and_floor_runners(mini_dir):
    missing = Runner("ghost", "other", None, reason="not installed (No module named 'ghost')")
    result = evaluate_dataset(open_dataset(mini_dir), [missing, get_runner("lxml")], n_bootstrap=0)
    ghost, floor = result.runners
    assert not ghost.available and ghost.pages == []
    assert floor.kind == "floor" and floor.shingles is None and len(floor.pages) == 3
    table = render([result], "table")
    assert "not installed" in table and "lxml (parse only)" in table


def test_limit_and_worst_pages(mini_dir):
    ds = open_dataset(mini_dir)
    answers = {"news-1": "nothing like it", "news-2": None}
    pages = {p.html: p for p in ds}

    def partial(html, url, lang):
        page = pages[html]
        return answers.get(page.id, page.main_text)

    result = evaluate_runner(ds, Runner("partial", "other", partial), n_bootstrap=0)
    worst = result.worst(2)
    # news-1 (P 0, R 0) and news-2 (empty: R 0) both score F1 0; ties broken by id
    assert [p.id for p in worst] == ["news-1", "news-2"]
    assert result.worst(0) == []
    limited = evaluate_runner(ds, Runner("partial", "other", partial), limit=1, n_bootstrap=0)
    assert [p.id for p in limited.pages] == ["news-1"]


def test_page_result_round_trip(mini_dir):
    result = evaluate_runner(open_dataset(mini_dir), get_runner("article"), n_bootstrap=0)
    for page in result.pages:
        data = json.loads(json.dumps(page.to_dict()))
        assert PageResult.from_dict(data) == page


def test_timing_summary():
    t = summarize_timing([1.0, 2.0, 3.0, 4.0])
    # median of 1..4 = 2.5; total 10 ms = 0.01 s -> 4 pages / 0.01 s = 400 pages/s
    assert t.median_ms == 2.5 and t.mean_ms == 2.5
    assert t.pages_per_s == pytest.approx(400)
    # p95 by linear interpolation: rank 0.95 * 3 = 2.85 -> 3 + 0.85 * (4 - 3) = 3.85
    assert t.p95_ms == pytest.approx(3.85)
    assert math.isnan(t.median_cpu_ms)  # no CPU times given
    # CPU times 1, 1, 3 (a NaN is left out): median 1
    assert summarize_timing([1.0, 2.0], [1.0, 1.0, 3.0, math.nan]).median_cpu_ms == 1.0


def test_pages_record_wall_and_cpu_time(mini_dir):
    result = evaluate_runner(open_dataset(mini_dir), get_runner("article"), n_bootstrap=0)
    assert all(p.ms > 0 and p.cpu_ms >= 0 for p in result.pages)
    assert result.timing.median_cpu_ms >= 0


def test_json_has_no_nan(mini_dir, snippets_dir):
    results = [
        evaluate_dataset(open_dataset(d), [get_runner("article")], n_bootstrap=10)
        for d in (mini_dir, snippets_dir)
    ]
    data = to_data(results, per_page=1)
    text = json.dumps(data, allow_nan=False)  # raises on NaN
    assert '"worst_pages"' in text
