"""``scrapy-boilerplate evaluate`` through ``scrapy_boilerplate.cli.main``."""

from __future__ import annotations

import json
import shlex
import sys
from pathlib import Path

import pytest

from scrapy_boilerplate.cli import main
from scrapy_boilerplate.registry import DEFAULT_EXTRACTOR


def run(capsys, *argv):
    code = main(["evaluate", *map(str, argv)])
    out, err = capsys.readouterr()
    return code, out, err


def test_table_for_one_set(capsys, mini_dir):
    code, out, _ = run(capsys, mini_dir, "--bootstrap", "20")
    assert code == 0
    assert "== mini (3 pages, 3 with reference text, 2 with snippets) ==" in out
    assert "tokens: auto: CJK-aware for zh/ja/th pages (1 of 3)" in out
    header = next(line for line in out.splitlines() if line.startswith("extractor"))
    for column in ("precision", "recall", "F1", "accuracy", "snippet F1", "median ms",
                   "p95 ms", "pages/s", "failures"):  # fmt: skip
        assert column in header
    # without -e, the package's default extractor is evaluated
    assert any(line.startswith(DEFAULT_EXTRACTOR + " ") for line in out.splitlines())
    assert " ± " in out


def test_several_extractors_and_sets(capsys, mini_dir, bench_dir):
    code, out, _ = run(capsys, mini_dir, bench_dir, "-e", "article,default", "--limit", "1")
    assert code == 0
    assert "== mini (1 pages" in out and "== bench (1 pages" in out
    rows = [line.split()[0] for line in out.splitlines() if line.startswith(("article", "default"))]
    assert rows == ["article", "default", "article", "default"]


def test_a_chain_spec_is_evaluated_as_custom(capsys, mini_dir):
    spec = '["keep_everything", {"min_words": {"min_words": 3}}]'
    code, out, _ = run(capsys, mini_dir, "-e", spec, "--bootstrap", "0")
    assert code == 0
    assert any(line.startswith("custom ") for line in out.splitlines())
    code, _, err = run(capsys, mini_dir, "-e", '["no_such_filter"]')
    assert code == 2 and "bad chain spec" in err and "no_such_filter" in err


def test_folder_of_sets(capsys, fixtures_dir):
    code, out, _ = run(capsys, fixtures_dir, "--bootstrap", "0")
    assert code == 0
    assert [line for line in out.splitlines() if line.startswith("== ")] == [
        "== bench (2 pages, 2 with reference text) ==",
        "== mini (3 pages, 3 with reference text, 2 with snippets) ==",
        "== snippets (2 pages, 2 with snippets) ==",
    ]


def test_snippet_only_set_reports_snippets(capsys, snippets_dir):
    code, out, _ = run(capsys, snippets_dir)
    assert code == 0
    header = next(line for line in out.splitlines() if line.startswith("extractor"))
    assert "snippet P" in header and "snippet R" in header and "snippet F1" in header
    assert " precision " not in header and "accuracy" not in header
    assert "tokens:" not in out  # no token-shingle numbers, so no tokenization


def test_json(capsys, mini_dir):
    code, out, _ = run(capsys, mini_dir, "--format", "json", "--tokens", "plain", "--per-page", "2")
    assert code == 0
    data = json.loads(out)
    assert data["meta"]["tokens"] == "plain"
    (ds,) = data["datasets"]
    assert ds["dataset"] == "mini" and ds["tokens"] == "plain" and ds["cjk_pages"] == 0
    (ours,) = ds["extractors"]
    assert ours["extractor"] == DEFAULT_EXTRACTOR and ours["failures"] == 0
    assert set(ours["shingles"]) >= {"precision", "recall", "f1", "f1_std", "accuracy"}
    assert set(ours["timing"]) >= {"median_ms", "p95_ms", "pages_per_s"}
    assert len(ours["worst_pages"]) == 2
    assert {"id", "precision", "recall", "f1", "ms"} <= set(ours["worst_pages"][0])


def test_markdown(capsys, mini_dir):
    code, out, _ = run(capsys, mini_dir, "-f", "markdown", "--tokens", "cjk", "--per-page", "1")
    assert code == 0
    assert "## mini (3 pages" in out
    assert "- tokens: cjk: each Han/kana/Thai character is a token" in out
    assert "| extractor | pages | precision |" in out
    assert f"### mini: the 1 worst pages of `{DEFAULT_EXTRACTOR}`" in out
    assert "| id | P | R | F1 | ms | error |" in out


def test_per_page_lists_the_worst_pages(capsys, mini_dir):
    code, out, _ = run(capsys, mini_dir, "--per-page", "2", "--bootstrap", "0")
    assert code == 0
    lines = out.splitlines()
    start = lines.index(f"-- mini: 2 worst pages of {DEFAULT_EXTRACTOR} --")
    assert lines[start + 1].split() == ["id", "P", "R", "F1", "ms", "error"]
    assert len([ln for ln in lines[start + 2 : start + 4] if ln.startswith("  ")]) == 2


def test_compare_with_a_missing_library(capsys, mini_dir, monkeypatch):
    monkeypatch.setitem(sys.modules, "trafilatura", None)
    code, out, _ = run(capsys, mini_dir, "--compare", "trafilatura,lxml", "--bootstrap", "0")
    assert code == 0
    row = next(line for line in out.splitlines() if line.startswith("trafilatura"))
    assert "not installed" in row
    assert "lxml (parse only)" in out


@pytest.mark.parametrize(
    "argv, message",
    [
        (["--extractor", "nope"], "unknown extractor 'nope'"),
        (["--compare", "nope"], "unknown extractor 'nope'"),
        (["--extractor", ""], "no extractor"),
    ],
)
def test_bad_extractor_names(capsys, mini_dir, argv, message):
    code, _, err = run(capsys, mini_dir, *argv)
    assert code == 2 and message in err


def test_missing_dataset(capsys, tmp_path):
    code, _, err = run(capsys, tmp_path / "nothing")
    assert code == 2 and "nothing" in err


def test_bad_option_values(capsys, mini_dir):
    with pytest.raises(SystemExit):
        main(["evaluate", str(mini_dir), "--tokens", "words"])
    with pytest.raises(SystemExit):
        main(["evaluate", str(mini_dir), "--limit", "-1"])
    capsys.readouterr()


def test_the_documented_example_runs_from_a_clone(capsys):
    """The first example of docs/evaluation.md, as written there."""
    docs = Path(__file__).resolve().parents[2] / "docs" / "evaluation.md"
    line = next(
        ln
        for ln in docs.read_text(encoding="utf-8").splitlines()
        if ln.startswith("$ scrapy-boilerplate evaluate tests/")
    )
    argv = shlex.split(line)[2:]
    root = Path(__file__).resolve().parents[2]
    argv = [str(root / a) if a.startswith("tests/") else a for a in argv]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert "== mini (3 pages" in out and "article " in out and "lxml (parse only)" in out


def test_site_memory_reads_each_set_as_a_crawl_and_names_the_rows_so(capsys, mini_dir, bench_dir):
    code, out, _ = run(
        capsys, mini_dir, bench_dir, "-e", "article,boosted", "--site-memory", "--bootstrap", "0"
    )
    assert code == 0
    rows = [line.split()[0] for line in out.splitlines() if "+site_memory" in line]
    assert rows == ["article+site_memory", "boosted+site_memory"] * 2
    code, out, _ = run(capsys, mini_dir, "-e", '["article"]', "--site-memory", "--bootstrap", "0")
    assert code == 0 and any(line.startswith("custom+site_memory ") for line in out.splitlines())
    code, _, err = run(capsys, mini_dir, "-e", "nope", "--site-memory")
    assert code == 2 and "unknown extractor 'nope+site_memory'" in err
