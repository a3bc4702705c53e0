"""``benchmarks.crawl_speed``: how a variant names its worker count, its extractor and
the checkout whose package it crawls with."""

from __future__ import annotations

import json
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


def news_set(folder, urls):
    """A dataset folder in the shared format: one short story per URL (None: no URL)."""
    (folder / "pages").mkdir(parents=True)
    with (folder / "truth.jsonl").open("w", encoding="utf-8") as truth:
        for i, url in enumerate(urls):
            story = f"Story {i}: the harbour market opened late after a long winter. " * 8
            (folder / "pages" / f"{i}.html").write_text(
                f"<html><head><title>Story {i}</title></head><body><p>{story}</p></body></html>"
            )
            truth.write(json.dumps({"id": str(i), "url": url, "page_file": f"pages/{i}.html"}))
            truth.write("\n")


def test_pages_keep_the_host_of_their_own_url(tmp_path):
    from benchmarks.crawl_speed import crawl_urls, page_records

    news_set(tmp_path / "news", ["https://www.example.org/a?id=1", None, "http://b.example/x"])
    records = page_records(tmp_path, 3, ("news",))
    assert [host for _, host in records] == ["www.example.org", None, "b.example"]
    hosts = [host for _, host in records]
    assert crawl_urls("http://127.0.0.1:8000", hosts, 3) == [
        "http://www.example.org/p/0.html",
        "http://page-1.unknown.test/p/1.html",  # a page without a URL is a site of its own
        "http://b.example/p/2.html",
        "http://hostile.test/p/3.html",
    ]
    assert crawl_urls("http://127.0.0.1:8000", None, 1) == [
        "http://127.0.0.1:8000/p/0.html",
        "http://127.0.0.1:8000/p/1.html",
    ]


def test_a_crawl_of_real_urls_fetches_every_page_through_the_page_server(tmp_path):
    # the hosts resolve nowhere here: every item proves the page server was the proxy
    news_set(tmp_path / "news", [f"http://site{i % 2}.example/story/{i}" for i in range(4)])
    out = tmp_path / "result.json"
    args = ["--data", str(tmp_path), "--sets", "news", "--pages", "4", "--repeat", "1"]
    args += ["--variants", "without,inline", "--real-urls", "--json", str(out)]
    done = subprocess.run(
        [sys.executable, "-m", "benchmarks.crawl_speed", *args],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    runs = json.loads(out.read_text())["runs"]
    assert [run["items"] for run in runs["without"]] == [4]
    assert [(run["items"], run["extracted"]) for run in runs["inline"]] == [(4, 4)]
