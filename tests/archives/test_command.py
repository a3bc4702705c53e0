"""``scrapy-boilerplate extract`` over archives: one JSON line per HTML response record,
streamed, with a summary on stderr."""

from __future__ import annotations

import json
import subprocess

import pytest

from scrapy_boilerplate.archives.writing import write_warc
from scrapy_boilerplate.cli import main
from scrapy_boilerplate.registry import DEFAULT_EXTRACTOR

from ..helpers import run_cli_without
from .helpers import IMAGE, news


@pytest.fixture
def warc_gz(tmp_path):
    path = tmp_path / "crawl.warc.gz"
    write_warc(path, [news(0), IMAGE, news(1), news(2)])
    return path


def lines(out: str) -> list[dict]:
    return [json.loads(line) for line in out.splitlines()]


def test_the_console_script_prints_one_json_line_per_html_record(warc_gz, tmp_path):
    plain = tmp_path / "crawl.warc"
    write_warc(plain, [news(3)], compress=False)
    done = subprocess.run(
        ["scrapy-boilerplate", "extract", "--format", "jsonl", str(warc_gz), str(plain)],
        capture_output=True,
        text=True,
        check=True,
    )
    results = lines(done.stdout)
    assert [r["url"] for r in results] == [f"http://news.example/{i}" for i in range(4)]
    assert all("began early on Tuesday" in r["text"] for r in results)
    assert {r["extractor"] for r in results} == {DEFAULT_EXTRACTOR}  # the package's default
    assert "4 pages" in done.stderr and "1 non_html" in done.stderr


def test_workers_give_the_same_lines(warc_gz, capsys):
    assert main(["extract", "-f", "jsonl", str(warc_gz)]) == 0
    one = lines(capsys.readouterr().out)
    assert main(["extract", "-f", "jsonl", "--workers", "2", str(warc_gz)]) == 0
    two = lines(capsys.readouterr().out)
    for result in one + two:
        del result["timings"]
    assert one == two


def test_text_and_json_formats(warc_gz, capsys):
    assert main(["extract", "--format", "text", str(warc_gz)]) == 0
    out = capsys.readouterr().out
    assert out.startswith("==> http://news.example/0 <==\n")
    assert out.count("==> ") == 3
    assert main(["extract", "--format", "json", str(warc_gz)]) == 0
    assert [r["url"] for r in json.loads(capsys.readouterr().out)] == [
        f"http://news.example/{i}" for i in range(3)
    ]


def test_an_archive_without_html_gives_an_empty_json_array(tmp_path, capsys):
    path = tmp_path / "images.warc.gz"
    write_warc(path, [IMAGE])
    assert main(["extract", "--format", "json", str(path)]) == 0
    captured = capsys.readouterr()
    assert json.loads(captured.out) == []
    assert "0 pages" in captured.err and "1 non_html" in captured.err


def test_a_progress_bar_on_request(warc_gz, capsys):
    assert main(["extract", "-f", "jsonl", "--progress", str(warc_gz)]) == 0
    bar = capsys.readouterr().err.split("\r")[-1]  # tqdm redraws its line
    assert bar.startswith("3 pages [") and "pages/s]" in bar


def test_html_files_and_archives_together(warc_gz, tmp_path, capsys):
    page = tmp_path / "page.html"
    page.write_bytes(news(4).body)
    assert main(["extract", "-f", "jsonl", str(page), str(warc_gz)]) == 0
    results = lines(capsys.readouterr().out)
    assert results[0]["path"] == str(page)
    assert [r.get("url") for r in results[1:]] == [f"http://news.example/{i}" for i in range(3)]


def test_a_file_that_cannot_be_read_does_not_cost_the_archive_its_pages(warc_gz, tmp_path, capsys):
    bad = tmp_path / "page.html.gz"
    bad.write_bytes(b"\x1f\x8b not gzip at all")
    assert main(["extract", "-f", "jsonl", str(bad), str(warc_gz)]) == 1
    captured = capsys.readouterr()
    assert [r["url"] for r in lines(captured.out)] == [f"http://news.example/{i}" for i in range(3)]
    assert "page.html.gz: cannot be read" in captured.err


def test_without_the_warc_extra_the_error_names_it(warc_gz):
    # FastWARC made unimportable, as on an install without the [warc] extra
    done = run_cli_without("fastwarc", ["extract", "-f", "jsonl", str(warc_gz)])
    assert done.returncode == 2
    assert "pip install 'scrapy-boilerplate-removal[warc]'" in done.stderr
    assert done.stdout == ""


def test_markdown_of_each_record(warc_gz, capsys):
    assert main(["extract", "--format", "markdown", "-w", "2", str(warc_gz)]) == 0
    out = capsys.readouterr().out
    assert out.count("==> http://news.example/") == 3
    assert "began early on Tuesday" in out


def test_the_annotated_view_is_for_html_files_not_archives(warc_gz, capsys):
    assert main(["extract", "--format", "annotated", str(warc_gz)]) == 2
    assert "--format annotated reads HTML files only" in capsys.readouterr().err


def test_the_site_memory_is_a_number_of_sites_and_zero_reads_each_page_alone(warc_gz, capsys):
    assert main(["extract", "-f", "jsonl", "--site-memory", "0", str(warc_gz)]) == 0
    alone = capsys.readouterr().out.splitlines()
    assert main(["extract", "-f", "jsonl", str(warc_gz)]) == 0
    remembered = capsys.readouterr().out.splitlines()
    assert len(alone) == len(remembered) > 1  # (these pages share no template block)
    with pytest.raises(SystemExit):
        main(["extract", "--site-memory", "-1", str(warc_gz)])
