"""``benchmarks.crawl_speed``: how a variant names its worker count, its extractor and
the checkout whose package it crawls with."""

from __future__ import annotations

import subprocess
import sys

import pytest

from benchmarks.crawl_speed import (
    REPO,
    crawl_launch,
    earlier_checkout_base,
    variant_parts,
    variant_workers,
    without_named_extractor,
)


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


def test_a_then_variant_is_the_same_crawl_compared_with_todays_default():
    assert variant_parts("then/process@article", None, "boosted") == (
        "process",
        None,
        "article",
        "",
    )
    assert earlier_checkout_base("then/process@article") == "process"
    assert earlier_checkout_base("then/process:2+alone") == "process:2+alone"
    assert earlier_checkout_base("process@article") is None


def test_a_crawl_of_this_checkout_runs_the_module_here():
    cmd, cwd, _ = crawl_launch("process", None)
    assert cmd[1:] == ["-m", "benchmarks.crawl_speed"]
    assert cwd == REPO


def test_a_then_variant_without_a_checkout_stops_the_run():
    with pytest.raises(SystemExit, match="--then"):
        crawl_launch("then/process", None)


def test_a_then_crawl_imports_the_package_of_the_other_checkout(tmp_path):
    # a stand-in for a worktree of an earlier commit: its package must win over this
    # checkout's editable install, or the comparison would crawl today's code twice
    package = tmp_path / "scrapy_boilerplate"
    package.mkdir()
    (package / "__init__.py").write_text("THEN = True\n")
    cmd, cwd, env = crawl_launch("then/process@article", tmp_path)
    assert cwd == tmp_path.resolve()
    assert cmd[1].endswith("crawl_speed.py")
    done = subprocess.run(
        [sys.executable, "-c", "import scrapy_boilerplate; print(scrapy_boilerplate.THEN)"],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    assert done.stdout.strip() == "True"
