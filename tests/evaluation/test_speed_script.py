"""``python -m benchmarks.extract_speed`` on the tiny fixture sets (no real data)."""

from __future__ import annotations

import importlib
import json

import pytest


@pytest.fixture(scope="module")
def extract_speed():
    # the benchmarks are modules of the checkout (python -m benchmarks.extract_speed)
    return importlib.import_module("benchmarks.extract_speed")


def test_times_named_extractors_and_chain_specs_side_by_side(
    extract_speed, fixtures_dir, tmp_path, capsys
):
    out = tmp_path / "speed.json"
    chain = 'keep_all=[{"keep_everything": {}}]'
    argv = [
        str(fixtures_dir), "--sets", "mini", "--extractors", "article,lxml",
        "--chain", chain, "--repeat", "1", "--json", str(out),
    ]  # fmt: skip
    assert extract_speed.main(argv) == 0
    printed = capsys.readouterr().out
    for name in ("article", "lxml", "keep_all"):
        assert f"  {name} " in printed
    rows = json.loads(out.read_text())["sets"]["mini"]
    assert list(rows) == ["article", "lxml", "keep_all"]
    assert all(row["pages"] == rows["article"]["pages"] > 0 for row in rows.values())
    assert all(row["median_ms"] > 0 for row in rows.values())


def test_a_chain_needs_a_name(extract_speed, fixtures_dir):
    with pytest.raises(SystemExit):
        extract_speed.main([str(fixtures_dir), "--chain", '[{"keep_everything": {}}]'])


def test_every_extractor_runs_each_round_and_none_always_first(extract_speed):
    from collections import Counter
    from types import SimpleNamespace

    class ThreePages:
        def iter_pages(self, limit=None):
            for i in range(3):
                yield SimpleNamespace(html=f"<p>page {i}</p>", url=None, lang=None)

    calls: list[str] = []

    def runner(name):
        return lambda html, url, lang: calls.append(name)

    rows = extract_speed.time_set(ThreePages(), {n: runner(n) for n in "abc"}, 3, None)
    timed = calls[3:]  # after one warm-up call each
    assert Counter(timed) == {"a": 9, "b": 9, "c": 9}
    firsts = [timed[i] for i in range(0, len(timed), 3)]  # the first of each round
    assert Counter(firsts) == {"a": 3, "b": 3, "c": 3}
    assert all(row["pages"] == 3 for row in rows.values())


def test_in_blocks_each_extractor_runs_its_pages_back_to_back(extract_speed):
    from types import SimpleNamespace

    class FivePages:
        def iter_pages(self, limit=None):
            for i in range(5):
                yield SimpleNamespace(html=f"<p>page {i}</p>", url=None, lang=None)

    calls: list[tuple[str, str]] = []

    def runner(name):
        return lambda html, url, lang: calls.append((name, html))

    rows = extract_speed.time_set(FivePages(), {n: runner(n) for n in "ab"}, 2, None, block=2)
    timed = calls[2:]  # after one warm-up call each
    assert len(timed) == 2 * 2 * 5  # every extractor, every round, every page
    # the first block: a runs pages 0 and 1, then b runs them; the next round b begins
    assert timed[:8] == [
        ("a", "<p>page 0</p>"), ("a", "<p>page 1</p>"),
        ("b", "<p>page 0</p>"), ("b", "<p>page 1</p>"),
        ("b", "<p>page 0</p>"), ("b", "<p>page 1</p>"),
        ("a", "<p>page 0</p>"), ("a", "<p>page 1</p>"),
    ]  # fmt: skip
    # the last block holds the one page left
    assert [html for _, html in timed[-4:]] == ["<p>page 4</p>"] * 4
    assert all(row["pages"] == 5 for row in rows.values())


def test_the_contenders_order_turns_from_round_to_round():
    from benchmarks.speed import turned

    names = ("a", "b", "c")
    assert [turned(names, k) for k in range(4)] == [
        ["a", "b", "c"], ["b", "c", "a"], ["c", "a", "b"], ["a", "b", "c"],
    ]  # fmt: skip
    assert turned(["x"], 5) == ["x"]
