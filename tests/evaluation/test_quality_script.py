"""``python -m benchmarks.quality`` end to end on the tiny fixture sets (no real data)."""

from __future__ import annotations

import importlib.util
import json

import pytest


@pytest.fixture(scope="module")
def quality():
    # the benchmarks are modules of the checkout (python -m benchmarks.quality)
    return importlib.import_module("benchmarks.quality")


def test_writes_the_report_and_resumes(quality, fixtures_dir, tmp_path, capsys):
    out = tmp_path / "benchmarks.md"
    argv = [
        "--data", str(fixtures_dir), "--out", str(out), "--work", str(tmp_path / "work"),
        "--extractors", "article,default", "--compare", "resiliparse", "--bootstrap", "10",
    ]  # fmt: skip
    assert quality.main(argv) == 0
    text = out.read_text(encoding="utf-8")
    assert text.startswith("# Benchmarks: quality and speed")
    assert "- Machine: " in text and " cores" in text
    assert "- Versions: python " in text and "lxml " in text
    assert "## F1 per set" in text and "## Median milliseconds per page" in text
    for name in ("bench", "mini", "snippets"):
        assert f"### {name} (" in text
    assert "| lxml (parse only) |" in text
    assert "tokens: auto: CJK-aware for zh/ja/th pages (1 of 3)" in text
    raw = json.loads((tmp_path / "work" / "quality.json").read_text(encoding="utf-8"))
    assert [d["dataset"] for d in raw["datasets"]] == ["bench", "mini", "snippets"]
    # a cached pass per set for article, default, lxml and (when installed) resiliparse
    passes = 4 if importlib.util.find_spec("resiliparse") else 3
    assert len(list((tmp_path / "work" / "quality").glob("*.json"))) == 3 * passes
    capsys.readouterr()

    assert quality.main([*argv, "--resume", "--sets", "mini"]) == 0
    err = capsys.readouterr().err
    assert "[mini] article: cached" in err and "[bench]" not in err
    again = out.read_text(encoding="utf-8")
    assert "loaded from an earlier run's cache" in again
    # the passes' time as they ran, and apart, what this invocation ran: nothing
    assert "passes were loaded from an earlier run's cache; none was run this time)" in again
    assert "### bench (" not in again


def test_the_best_other_table_gives_the_defaults_margin_a_paired_interval(quality):
    from scrapy_boilerplate.evaluation.evaluate import DatasetResult, PageResult, RunnerResult
    from scrapy_boilerplate.evaluation.metrics import PageScore

    def run(name: str, tp: int, fp: int) -> RunnerResult:
        result = RunnerResult(name, "ours", None)
        for i in range(40):  # pages alike but for every fourth, where both do worse
            worse = 3 if i % 4 == 0 else 0
            score = PageScore(tp=tp - worse, fp=fp + worse, fn=1, truth_empty=False,
                              pred_empty=False, exact=False)  # fmt: skip
            result.pages.append(PageResult(f"p{i}", 1.0, "plain", score))
        return result.finish(0)

    ds = DatasetResult("dragnet-test", "", "plain", pages=40, text_pages=40)
    ds.runners = [run("boosted", 9, 1), run("readability", 8, 2), run("article", 5, 5)]
    table = quality.best_other_table([ds], ("boosted", "article"), {}, n_bootstrap=200)
    head, _, row = table.splitlines()
    assert "boosted's margin, 95 % interval" in head
    cells = [c.strip() for c in row.strip("|").split("|")]
    assert cells[:3] == ["dragnet-test", "readability", f"{ds.runners[1].shingles.f1:.3f}"]
    low, high = (float(x) for x in cells[5].split(" .. "))
    margin = ds.runners[0].shingles.f1 - ds.runners[1].shingles.f1
    assert 0 < low <= margin <= high  # ahead on every page: the interval holds no 0
    # a set the models trained on (the default's figure in-sample): no interval
    ds.name = "wcxb-dev"
    row = quality.best_other_table([ds], ("boosted",), {}, n_bootstrap=200).splitlines()[2]
    assert [c.strip() for c in row.strip("|").split("|")][4] == ""
    # no default extractor in the run: no interval
    ds.name = "dragnet-test"
    ds.runners = ds.runners[1:]
    row = quality.best_other_table([ds], ("article",), {}, n_bootstrap=200).splitlines()[2]
    assert [c.strip() for c in row.strip("|").split("|")][4] == ""


def test_the_cross_validated_column_reads_the_default_as_shipped_first(quality, tmp_path):
    shipped, plain = (tmp_path / p for p in quality.CROSS_VALIDATED)
    assert quality.read_cross_validated([shipped, plain]) == {}  # grouped_cv has not run
    plain.parent.mkdir(parents=True)
    plain.write_text(json.dumps({"wcxb-dev": {"f1": 0.8285}}), encoding="utf-8")
    assert quality.read_cross_validated([shipped, plain]) == {"wcxb-dev": 0.8285}
    # the run with the discussions model's folds (and so its rescue) is the default's own
    shipped.parent.mkdir(parents=True)
    shipped.write_text(json.dumps({"wcxb-dev": {"f1": 0.8361}}), encoding="utf-8")
    assert quality.read_cross_validated([shipped, plain]) == {"wcxb-dev": 0.8361}


def test_the_report_tells_the_passes_time_apart_from_this_runs(quality):
    import argparse

    run = quality.CachedRun(argparse.Namespace())
    run.run_s, run.computed, run.computed_s = 600.0, 2, 60.0
    assert quality.wall_time(run) == "the passes took 10.0 minutes of wall time"
    run.cached = 3
    assert quality.wall_time(run) == (
        "the passes took 10.0 minutes of wall time as they ran (3 of 5 (set, extractor) "
        "passes were loaded from an earlier run's cache; the 2 run this time took 1.0)"
    )
