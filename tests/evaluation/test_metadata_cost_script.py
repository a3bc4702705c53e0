"""``python -m benchmarks.metadata_accuracy --cost-parts`` on a tiny fixture set."""

from __future__ import annotations

import importlib

import pytest

pytest.importorskip("htmldate", reason="the article extra is not installed")
pytest.importorskip("extruct", reason="the article extra is not installed")


def test_cost_parts_time_every_way_and_put_htmldate_back(fixtures_dir, tmp_path, capsys):
    script = importlib.import_module("benchmarks.metadata_accuracy")
    from scrapy_boilerplate.metadata import article

    htmldate = article._htmldate
    # the cost is measured on wcxb-dev: a fixture set under that name stands in for it
    (tmp_path / "wcxb-dev").symlink_to(fixtures_dir / "mini", target_is_directory=True)
    assert script.main(["--data", str(tmp_path), "--cost-parts", "--limit", "3"]) == 0
    printed = capsys.readouterr().out
    assert "(3 pages)" in printed
    for name in script.COST_PARTS:
        assert f"  {name} " in printed
    assert article._htmldate is htmldate
