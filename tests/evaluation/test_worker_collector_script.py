"""``python -m benchmarks.worker_collector`` on the tiny fixture sets (no real data)."""

from __future__ import annotations

import gc
import json


def test_times_each_collector_setting_and_leaves_the_process_as_it_was(
    script, fixtures_dir, tmp_path, capsys
):
    before = gc.isenabled(), gc.get_threshold(), gc.get_freeze_count()
    out = tmp_path / "collector.json"
    argv = [str(fixtures_dir), "--sets", "mini", "--rounds", "2", "--json", str(out)]
    assert script.main(argv) == 0
    printed = capsys.readouterr().out
    for setting in ("python", "worker", "off"):
        assert f"  {setting} " in printed
    result = json.loads(out.read_text())
    assert result["pages"] > 0
    assert all(len(rounds) == 2 for rounds in result["rounds_ms"].values())
    assert all(ms > 0 for ms in result["medians_ms"].values())
    assert (gc.isenabled(), gc.get_threshold(), gc.get_freeze_count()) == before


def test_memory_is_read_in_a_fresh_process_per_setting(script, fixtures_dir, tmp_path):
    out = tmp_path / "collector.json"
    argv = [str(fixtures_dir), "--sets", "mini", "--rounds", "1", "--memory", "3"]
    assert script.main([*argv, "--json", str(out)]) == 0
    memory = json.loads(out.read_text())["resident_mb"]
    assert set(memory) == {"python", "worker"}
    assert all(len(sizes) == 1 and sizes[0] > 0 for sizes in memory.values())  # 3 < 1,000


def test_each_setting_is_what_it_says(script):
    from scrapy_boilerplate.parallel.process_pool import WORKER_GC_THRESHOLD

    try:
        script.set_collector("worker")
        assert gc.isenabled() and gc.get_threshold()[0] == WORKER_GC_THRESHOLD
        assert gc.get_freeze_count() > 0
        script.set_collector("off")
        assert not gc.isenabled() and gc.get_freeze_count() == 0
    finally:
        script.set_collector("python")
    assert gc.isenabled() and gc.get_threshold()[0] != WORKER_GC_THRESHOLD
