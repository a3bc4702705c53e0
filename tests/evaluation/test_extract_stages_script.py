"""``python -m benchmarks.extract_stages`` on the tiny fixture sets (no real data)."""

from __future__ import annotations

import gc
import json

import pytest

from scrapy_boilerplate.extraction import get_extractor


def test_splits_each_extractors_page_time_into_its_stages(script, fixtures_dir, tmp_path, capsys):
    out = tmp_path / "stages.json"
    argv = [str(fixtures_dir), "--sets", "mini", "--extractors", "boosted,article"]
    assert script.main([*argv, "--rounds", "2", "--json", str(out)]) == 0
    printed = capsys.readouterr().out
    assert "boosted: " in printed and "article: " in printed
    result = json.loads(out.read_text())
    assert result["pages"] == 3
    boosted, article = result["medians_ms"]["boosted"], result["medians_ms"]["article"]
    for name, stages in (("boosted", boosted), ("article", article)):
        assert stages["whole"] > 0 and stages["parse: tree"] > 0
        assert all(len(rounds) == 2 for rounds in result["rounds_ms"][name].values())
    # the learned labeler is split into its columns, its trees and its decoding ...
    assert boosted["labeler: features"] > 0
    assert {"labeler: trees", "labeler: decoding", "filter: boosted_labeler"} <= set(boosted)
    # ... boilerpipe's chain has no such parts, only its filters
    assert not any(stage.startswith("labeler: ") for stage in article)
    assert "filter: terminating_blocks" in article


def test_a_filter_that_appears_twice_in_a_chain_is_listed_twice(script):
    names = [name for name, _ in script.top_level_filters(get_extractor("article"))]
    assert names.count("block_proximity_fusion") == 1
    assert "block_proximity_fusion (2)" in names
    assert names[0] == "terminating_blocks"


def test_an_extractor_that_is_one_filter_is_its_own_stage(script):
    from scrapy_boilerplate.extraction import Extractor
    from scrapy_boilerplate.filters.simple import MarkEverythingContentFilter

    extractor = Extractor(MarkEverythingContentFilter(), name="everything")
    names = [name for name, _ in script.top_level_filters(extractor)]
    assert names == [MarkEverythingContentFilter.name]


def test_the_worker_s_collector_is_set_for_the_rounds_only(script, fixtures_dir, tmp_path):
    before = gc.isenabled(), gc.get_threshold(), gc.get_freeze_count()
    out = tmp_path / "stages.json"
    argv = [str(fixtures_dir), "--sets", "mini", "--extractors", "article", "--rounds", "1"]
    assert script.main([*argv, "--collector", "worker", "--json", str(out)]) == 0
    assert json.loads(out.read_text())["collector"] == "worker"
    assert (gc.isenabled(), gc.get_threshold(), gc.get_freeze_count()) == before


def test_sets_that_are_not_there_are_a_usage_error(script, fixtures_dir, capsys):
    with pytest.raises(SystemExit) as stopped:
        script.main([str(fixtures_dir), "--sets", "no-such-set"])
    assert stopped.value.code == 2
    assert "no set named 'no-such-set'" in capsys.readouterr().err
