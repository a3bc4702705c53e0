"""The runnable examples run, from the repository root, in one command each."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
RUN = ROOT / "examples" / "news_crawler" / "run.py"
PAGES = json.loads((ROOT / "examples" / "news_crawler" / "site" / "pages.json").read_text())


def run_example(*args, tmp_path):
    return subprocess.run(
        [sys.executable, str(RUN), *args],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=300,
    )


@pytest.mark.parametrize("spider", ["news", "custom_chain"])
def test_news_crawler_example(spider, tmp_path):
    output = tmp_path / f"{spider}.jsonl"
    done = run_example("--spider", spider, "--output", str(output), tmp_path=tmp_path)
    assert done.returncode == 0, done.stderr[-3000:]
    assert f"Wrote {len(PAGES)} articles to {output}" in done.stdout
    articles = [json.loads(line) for line in output.read_text(encoding="utf-8").splitlines()]
    assert len(articles) == len(PAGES)
    assert all(set(a) == {"url", "title", "main_text"} for a in articles)
    assert all(len(a["main_text"]) > 200 for a in articles)
    lines = [line for a in articles for line in a["main_text"].split("\n\n")]
    if spider == "custom_chain":  # the project's own filter dropped the promo lines
        assert "Advertisement" not in lines and "Read more" not in lines
    assert "ERROR" not in done.stderr
