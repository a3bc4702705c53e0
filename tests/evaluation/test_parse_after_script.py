"""``python -m benchmarks.parse_after`` on the tiny fixture sets (no real data)."""

from __future__ import annotations

import json

import pytest


def test_times_the_next_page_s_parse_after_each_kind_of_work(
    script, fixtures_dir, tmp_path, capsys
):
    out = tmp_path / "after.json"
    argv = [str(fixtures_dir), "--sets", "mini", "--extractors", "boosted,article"]
    assert script.main([*argv, "--sweep-mb", "1", "--rounds", "2", "--json", str(out)]) == 0
    printed = capsys.readouterr().out
    result = json.loads(out.read_text())
    assert result["pages"] == 3
    modes = ["nothing", "boosted", "article", "sweep 1 MB"]
    assert list(result["medians_ms"]) == modes
    for mode in modes:
        assert mode in printed
        parts = result["medians_ms"][mode]
        assert parts["warm-up"] > 0 and parts["next tree"] > 0
        assert all(len(rounds) == 2 for rounds in result["rounds_ms"][mode].values())


def test_the_default_s_work_in_growing_parts_is_a_mode_each(script, fixtures_dir, tmp_path):
    out = tmp_path / "after.json"
    argv = [str(fixtures_dir), "--sets", "mini", "--extractors", "", "--sweep-mb", ""]
    assert script.main([*argv, "--parts", "--rounds", "1", "--json", str(out)]) == 0
    medians = json.loads(out.read_text())["medians_ms"]
    parts = ["its parse", "+ columns", "+ trees", "+ labeler", "+ chain"]
    assert list(medians) == ["nothing", *parts]
    assert all(medians[part]["next tree"] > 0 for part in parts)


def test_each_page_s_work_comes_before_the_next_page_s_parse(script, monkeypatch):
    # the pages as the sets give them: the work is done on each but the last, and the
    # parse timed after it is the following page's
    events: list[str] = []
    monkeypatch.setattr(script, "build_tree", lambda html: events.append(f"parse {html}"))
    pages = [type("Page", (), {"html": name, "url": None})() for name in "abc"]
    warm_up, tree = script.one_pass(pages, lambda page: events.append(f"work {page.html}"))
    warm = f"parse {script.WARM_UP_PAGE}"
    assert events == ["work a", warm, "parse b", "work b", warm, "parse c"]
    assert warm_up >= 0 and tree >= 0


def test_a_sweep_writes_one_byte_of_every_cache_line_of_its_buffer(script):
    sweep = script.Sweep(1)
    lines = 1024 * 1024 // 64
    written = []
    for _ in range(2):
        sweep(None)
        value = int(sweep.buffer[0])
        assert value != 0 and (sweep.buffer[::64] == value).all()
        assert (sweep.buffer != 0).sum() == lines  # and no other byte
        written.append(value)
    assert written[0] != written[1]  # each sweep writes another value: a real write


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--sets", "no-such-set"], "no set named 'no-such-set'"),
        (["--sets", "mini", "--sweep-mb", "0"], "at least 1 MB"),
    ],
)
def test_usage_errors(script, fixtures_dir, capsys, argv, message):
    with pytest.raises(SystemExit) as stopped:
        script.main([str(fixtures_dir), *argv])
    assert stopped.value.code == 2
    assert message in capsys.readouterr().err
