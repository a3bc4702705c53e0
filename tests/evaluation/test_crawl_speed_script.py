"""``benchmarks.crawl_speed``: how a variant names its worker count."""

from __future__ import annotations

import pytest

from benchmarks.crawl_speed import variant_workers


def test_a_variant_takes_the_worker_count_of_the_command_line_unless_it_names_one():
    assert variant_workers("process", None) == ("process", None)
    assert variant_workers("process", 3) == ("process", 3)
    assert variant_workers("process:2", 3) == ("process", 2)
    assert variant_workers("with:8", None) == ("with", 8)


def test_a_worker_count_that_is_no_number_stops_the_run():
    with pytest.raises(SystemExit, match="worker count"):
        variant_workers("process:two", None)
