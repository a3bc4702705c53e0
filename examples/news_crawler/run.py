#!/usr/bin/env python
"""Run the example crawl in one command: ``python examples/news_crawler/run.py``.

Serves the example news site on 127.0.0.1 (a free port), crawls it with scrapy-boilerplate
enabled, writes the clean articles to ``output/<spider>.jsonl`` and says how many there are.
Options: ``--spider custom_chain`` for the spider with its own chain; ``--output FILE``.
Needs the package installed (``pip install -e .`` from the repository root).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--spider", default="news", choices=("news", "custom_chain"))
    parser.add_argument("--output", type=Path, help="JSON-lines file to write")
    parser.add_argument("--loglevel", default="WARNING")
    args = parser.parse_args(argv)

    sys.path.insert(0, str(HERE))
    os.environ["SCRAPY_SETTINGS_MODULE"] = "news_crawler.settings"
    from scrapy.crawler import CrawlerProcess
    from scrapy.utils.project import get_project_settings

    settings = get_project_settings()
    settings.set("LOG_LEVEL", args.loglevel, priority="cmdline")
    output = args.output or settings["OUTPUT_DIR"] / f"{args.spider}.jsonl"
    output = Path(output).resolve()
    feed_options = next(iter(settings.getdict("FEEDS").values()))
    settings.set("FEEDS", {output: feed_options}, priority="cmdline")

    process = CrawlerProcess(settings)
    crawler = process.create_crawler(args.spider)
    process.crawl(crawler)
    process.start()

    stats = crawler.stats.get_stats()
    with output.open(encoding="utf-8") as f:
        articles = [json.loads(line) for line in f]
    with_text = sum(1 for a in articles if a.get("main_text"))
    print(f"Wrote {len(articles)} articles to {output}")
    print(
        f"{with_text} with main text; boilerplate stats: "
        + ", ".join(
            f"{k.split('/', 1)[1]}={v}"
            for k, v in sorted(stats.items())
            if k.startswith("boilerplate/")
        )
    )
    return 0 if with_text else 1


if __name__ == "__main__":
    sys.exit(main())
