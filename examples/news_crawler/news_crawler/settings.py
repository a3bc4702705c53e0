"""Settings of the example project (read by ``scrapy crawl`` and by ``run.py``)."""

from pathlib import Path

BOT_NAME = "news_crawler"
SPIDER_MODULES = ["news_crawler.spiders"]
NEWSPIDER_MODULE = "news_crawler.spiders"

# scrapy-boilerplate: the add-on enables the downloader and spider middlewares.
ADDONS = {"scrapy_boilerplate.addon.BoilerplateAddon": 0}
BOILERPLATE_EXTRACTOR = "web2text"  # the default; "article" for boilerpipe (docs/settings.md)
# BOILERPLATE_DOMAIN_EXTRACTORS = {"blog.example.com": "default"}  # per-site chains

# Clean articles go to a JSON-lines feed, one file per spider.
OUTPUT_DIR = Path(__file__).resolve().parent.parent / "output"
FEEDS = {
    OUTPUT_DIR / "%(name)s.jsonl": {
        "format": "jsonlines",
        "encoding": "utf8",
        "overwrite": True,
        "fields": ["url", "title", "main_text"],
    }
}

# The site is served by the example itself on 127.0.0.1; be quick, but polite elsewhere.
ROBOTSTXT_OBEY = False
CONCURRENT_REQUESTS = 8
LOG_LEVEL = "INFO"
TELNETCONSOLE_ENABLED = False
