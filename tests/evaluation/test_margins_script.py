"""``python -m benchmarks.margins``: ours against the best other library, paired resamples
(the computation in ``benchmarks.paired_margins``)."""

from __future__ import annotations

import importlib
import json
import math

import numpy as np
import pytest

from scrapy_boilerplate.evaluation.evaluate import PageResult, RunnerResult
from scrapy_boilerplate.evaluation.metrics import PageScore


@pytest.fixture(scope="module")
def margins():
    return importlib.import_module("benchmarks.margins")


@pytest.fixture(scope="module")
def paired():
    return importlib.import_module("benchmarks.paired_margins")


def _page(pid: str, tp: int, fp: int, fn: int) -> PageResult:
    score = PageScore(tp=tp, fp=fp, fn=fn, truth_empty=False, pred_empty=tp + fp == 0, exact=False)
    return PageResult(pid, 1.0, "plain", score)


def _result(name: str, pages: list[PageResult]) -> RunnerResult:
    result = RunnerResult(name, "ours", None)
    result.pages.extend(pages)
    return result.finish(0)


def test_the_best_anchor_is_chosen_on_the_whole_set_and_resampled_with_ours(paired):
    ours = _result("ours", [_page(f"p{i}", 9, 1, 0) for i in range(20)])
    weak = _result("weak", [_page(f"p{i}", 1, 9, 9) for i in range(20)])
    strong = _result("strong", [_page(f"p{i}", 9, 0, 1 if i % 2 else 0) for i in range(20)])
    m = paired.set_margin("set", ours, [weak, strong], n_bootstrap=200)
    assert m.best_name == "strong" and m.best == pytest.approx(strong.shingles.f1)
    summary = m.summary()
    assert summary["margin"] == pytest.approx(ours.shingles.f1 - strong.shingles.f1)
    assert summary["low"] <= summary["margin"] <= summary["high"]
    assert 0 <= summary["ahead"] <= 1 and summary["std"] > 0


def test_pages_one_extractor_lacks_are_left_out_of_the_pairs(paired):
    ours = _result("ours", [_page("a", 1, 0, 0), _page("b", 0, 1, 1), _page("c", 1, 0, 0)])
    other = _result("other", [_page("c", 1, 0, 0), _page("a", 0, 1, 1)])
    scores = paired.aligned_scores([ours, other])
    assert [len(s) for s in scores] == [2, 2]
    assert scores[0][0].tp == 1 and scores[1][0].tp == 0  # page a in both, first


def test_no_anchor_no_margin(paired):
    ours = _result("ours", [_page("a", 1, 0, 0)])
    assert paired.set_margin("set", ours, []) is None
    # an anchor that scored no page with a reference text does not count
    unscored = _result("unscored", [PageResult("a", 1.0, "plain")])
    assert paired.set_margin("set", ours, [unscored]) is None


def test_the_mean_over_sets_and_the_target(margins, paired):
    rng = np.random.default_rng(0)
    sets = [
        paired.SetMargin(
            name, ours, "x", best, ours + rng.normal(0, 0.005, 500), np.full(500, best)
        )
        for name, ours, best in (("a", 0.95, 0.90), ("b", 0.91, 0.92))
    ]
    mean = paired.mean_margin(sets, target=0.93)
    assert mean["ours"] == pytest.approx(0.93) and mean["best"] == pytest.approx(0.91)
    assert mean["margin"] == pytest.approx(0.02) and mean["ahead"] == 1.0
    assert 0.3 < mean["reaches_target"] < 0.7  # the resamples centre on the target itself
    assert mean["ours_low"] < 0.93 < mean["ours_high"]
    table = margins.format_table([s.summary() for s in sets], mean)
    assert "| a | 0.9500 | x 0.9000 | +0.0500 |" in table
    assert "| mean of 2 | 0.9300" in table and "reaches 0.93 in" in table


def test_a_spread_without_resamples_is_nan(paired):
    s = paired.spread(0.1, np.full(10, np.nan))
    assert s["margin"] == 0.1 and math.isnan(s["std"]) and math.isnan(s["ahead"])


def test_end_to_end_on_the_fixture_sets(margins, fixtures_dir, tmp_path, capsys):
    out = tmp_path / "margins.json"
    argv = [
        "--data", str(fixtures_dir), "--work", str(tmp_path / "work"), "--sets", "bench,mini",
        "--ours", "default", "--anchors", "article", "--bootstrap", "50", "--json", str(out),
    ]  # fmt: skip
    assert margins.main(argv) == 0
    printed = capsys.readouterr().out
    assert "default against the best other library" in printed
    assert "| bench | " in printed and "| mini | " in printed and "| mean of 2 |" in printed
    data = json.loads(out.read_text(encoding="utf-8"))
    assert [row["dataset"] for row in data["sets"]] == ["bench", "mini"]
    assert all(row["best_other"] == "article" for row in data["sets"])
    # the runs were cached for the quality benchmark, and a resumed run reads them
    assert len(list((tmp_path / "work" / "quality").glob("*.json"))) == 4
    assert margins.main([*argv, "--resume"]) == 0
    assert "[bench] default: cached" in capsys.readouterr().err


def test_unknown_sets_are_named(margins, fixtures_dir, tmp_path, capsys):
    argv = ["--data", str(fixtures_dir), "--sets", "nowhere", "--work", str(tmp_path)]
    assert margins.main(argv) == 2
    assert "nowhere" in capsys.readouterr().err
