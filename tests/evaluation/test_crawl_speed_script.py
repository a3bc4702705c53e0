"""``benchmarks.crawl_speed``: how a variant names its worker count and its extractor."""

from __future__ import annotations

import pytest

from benchmarks.crawl_speed import variant_parts, variant_workers, without_named_extractor


def test_a_variant_takes_the_worker_count_of_the_command_line_unless_it_names_one():
    assert variant_workers("process", None) == ("process", None)
    assert variant_workers("process", 3) == ("process", 3)
    assert variant_workers("process:2", 3) == ("process", 2)
    assert variant_workers("with:8", None) == ("with", 8)


def test_a_worker_count_that_is_no_number_stops_the_run():
    with pytest.raises(SystemExit, match="worker count"):
        variant_workers("process:two", None)


def test_a_variant_may_name_its_extractor_and_is_compared_with_the_same_without_it():
    assert variant_parts("process", None, "boosted") == ("process", None, "boosted", "")
    assert variant_parts("process@article", 1, "boosted") == ("process", 1, "article", "")
    assert variant_parts("with:2@web2text+alone", None, "boosted") == (
        "with",
        2,
        "web2text",
        "alone",
    )
    assert without_named_extractor("process@article") == "process"
    assert without_named_extractor("process:2@article+alone") == "process:2+alone"
    assert without_named_extractor("process+alone") is None


def test_rounds_are_compared_with_the_same_round_of_the_base_crawl():
    from benchmarks.crawl_speed import round_ratios

    runs = {"without": [{"pages_per_s": 200.0}, {"pages_per_s": 100.0}]}
    runs["process"] = [{"pages_per_s": 150.0}, {"pages_per_s": 90.0}]
    assert round_ratios(runs, "process", "without") == [0.75, 0.9]
