"""``scrapy boilerplate URL_OR_FILE...`` through scrapy.cmdline, in a subprocess."""

from __future__ import annotations

import gzip
import json
import os
import subprocess
import sys
from importlib.metadata import entry_points

from scrapy_boilerplate.registry import DEFAULT_EXTRACTOR

from .helpers import article_page


def scrapy_cmd(*args, cwd):
    return subprocess.run(
        [sys.executable, "-m", "scrapy", "boilerplate", *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        timeout=120,
    )


def test_the_command_is_registered():
    names = {ep.name: ep.value for ep in entry_points(group="scrapy.commands")}
    assert names.get("boilerplate") == "scrapy_boilerplate.commands:BoilerplateCommand", (
        "reinstall the package (pip install -e .) to register the scrapy.commands entry point"
    )


def test_command_on_files(tmp_path):
    page = tmp_path / "page.html"
    page.write_text(article_page("the harbour market"), encoding="utf-8")
    packed = tmp_path / "packed.html.gz"
    packed.write_bytes(gzip.compress(article_page("the old bridge").encode()))

    done = scrapy_cmd(str(page), cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "The story about the harbour market began" in done.stdout
    assert "Privacy" not in done.stdout

    done = scrapy_cmd(
        "--format", "json", "-e", "keep_everything", str(page), str(packed), cwd=tmp_path
    )
    assert done.returncode == 0, done.stderr
    lines = [json.loads(line) for line in done.stdout.splitlines()]
    assert [r["source"] for r in lines] == [str(page), str(packed)]
    assert all(r["extractor"] == "keep_everything" for r in lines)
    assert "Privacy" in lines[0]["text"] and "old bridge" in lines[1]["text"]

    done = scrapy_cmd("-e", "no_such_extractor", str(page), cwd=tmp_path)
    assert done.returncode == 2 and "BOILERPLATE_EXTRACTOR" in done.stderr


def test_command_fetches_urls_through_scrapy(http_server, tmp_path):
    """Runs a reactor in a subprocess against the test's local server."""
    url = http_server.route("/a.html", article_page("the harbour market"))
    json_url = http_server.route("/x.json", b"{}", content_type="application/json")
    local = tmp_path / "local.html"
    local.write_text(article_page("the local file"), encoding="utf-8")

    done = scrapy_cmd("--format", "json", url, str(local), json_url, cwd=tmp_path)
    lines = [json.loads(line) for line in done.stdout.splitlines()]
    assert [r["source"] for r in lines] == [url, str(local), json_url]  # argument order
    assert "The story about the harbour market" in lines[0]["text"]
    assert lines[0]["extractor"] == DEFAULT_EXTRACTOR
    assert "local file" in lines[1]["text"]
    assert lines[2]["reason"] == "non_html"
    assert done.returncode == 1  # one input was not extracted
    assert "/a.html" in http_server.requests


def test_command_needs_an_argument(tmp_path):
    done = scrapy_cmd(cwd=tmp_path)
    assert done.returncode == 2


def test_command_says_why_a_page_was_not_extracted(http_server, tmp_path):
    missing = http_server.url("/missing.html")  # 404
    empty = http_server.route("/empty.html", "<html><body><script>x()</script></body></html>")
    done = scrapy_cmd(missing, empty, cwd=tmp_path)
    assert f"scrapy boilerplate: {missing}: not extracted (status 404)" in done.stderr
    assert f"scrapy boilerplate: {empty}: no main text (no_text)" in done.stderr
    assert done.returncode == 1


def test_the_help_reads_well_at_80_columns(tmp_path):
    # Scrapy's help formatter takes a line ending in ":" for a heading (underlined,
    # title-cased): the command's texts must not give it one
    done = subprocess.run(
        [sys.executable, "-m", "scrapy", "boilerplate", "--help"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env={**os.environ, "COLUMNS": "80"},
        timeout=120,
    )
    assert done.returncode == 0
    assert "Myproject" not in done.stdout and "(Default" not in done.stdout
    assert "myproject.filters.DropBylines" in done.stdout
    headings = [line for line in done.stdout.splitlines() if line and set(line) <= {"=", "-"}]
    assert len(headings) == 3  # Usage, Options, Global Options


def test_command_writes_the_annotated_view_of_urls_and_files(http_server, tmp_path):
    # a live page with the project's settings: the extractor its domain gets
    url = http_server.route("/a.html", article_page("the harbour market"))
    local = tmp_path / "local.html"
    local.write_text(article_page("the local file"), encoding="utf-8")
    done = scrapy_cmd("--format", "annotated", url, str(local), cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    documents = done.stdout.split("==> ")[1:]
    assert [d.split(" <==")[0] for d in documents] == [url, str(local)]
    assert all("<!DOCTYPE html>" in d and "sb-content" in d for d in documents)
    assert "harbour market" in documents[0] and "local file" in documents[1]
    assert f"{DEFAULT_EXTRACTOR}: " in documents[0]  # the legend names the extractor
    # (one extraction of the file gives both its messages and the view, traced)
    assert all("decided by" in d for d in documents)


COUNTING_FILTER = """
import os
from scrapy_boilerplate.filters import Filter

class CountCalls(Filter):
    name = "count_calls"

    def __call__(self, doc):
        with open(os.environ["CALLS_FILE"], "a") as f:
            f.write("call\\n")
        return False
"""


def test_the_annotated_view_of_a_url_costs_one_extraction(http_server, tmp_path):
    # the middleware makes the view with the text: the page is not extracted again
    (tmp_path / "counting.py").write_text(COUNTING_FILTER, encoding="utf-8")
    calls = tmp_path / "calls.txt"
    url = http_server.route("/a.html", article_page("the harbour market"))
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "scrapy",
            "boilerplate",
            "--format",
            "annotated",
            "-e",
            json.dumps([DEFAULT_EXTRACTOR, "counting.CountCalls"]),
            url,
        ],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env={**os.environ, "CALLS_FILE": str(calls), "PYTHONPATH": str(tmp_path)},
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert "sb-content" in done.stdout and "harbour market" in done.stdout
    assert calls.read_text().splitlines() == ["call"]
