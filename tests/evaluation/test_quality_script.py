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
    assert "### bench (" not in again
