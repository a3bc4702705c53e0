"""``python -m benchmarks.one_pass`` on the tiny fixture set (no real data)."""

from __future__ import annotations

import importlib
import json


def test_reports_the_median_and_the_peak_memory_of_one_pass(fixtures_dir, capsys):
    one_pass = importlib.import_module("benchmarks.one_pass")
    argv = ["article", "mini", "--data", str(fixtures_dir), "--limit", "2"]
    assert one_pass.main(argv) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["extractor"] == "article" and report["set"] == "mini"
    assert report["pages"] == 2 and report["median_ms"] > 0
    assert report["peak_rss_mb"] > 10  # the interpreter and the package at least
