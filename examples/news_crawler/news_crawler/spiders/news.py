"""Crawl the local news site: the index, then every article it links.

The callback only yields ``Article(url=...)``; scrapy-boilerplate fills ``main_text`` and
``title``. Without ``-a site_url=...`` the spider serves the example site itself.
"""

from __future__ import annotations

import scrapy
from scrapy import signals

from news_crawler.items import Article
from news_crawler.site import NewsSite


class NewsSpider(scrapy.Spider):
    name = "news"

    def __init__(self, site_url: str | None = None, **kwargs):
        super().__init__(**kwargs)
        self.site_url = site_url
        self.site: NewsSite | None = None

    @classmethod
    def from_crawler(cls, crawler, *args, **kwargs):
        spider = super().from_crawler(crawler, *args, **kwargs)
        if not spider.site_url:
            spider.site = NewsSite()
            spider.site_url = spider.site.start()
            crawler.signals.connect(spider.stop_site, signal=signals.spider_closed)
        spider.start_urls = [spider.site_url]
        return spider

    def stop_site(self) -> None:
        if self.site is not None:
            self.site.stop()

    def parse(self, response):
        for href in response.css("a.article::attr(href)").getall():
            yield response.follow(href, callback=self.parse_article)

    def parse_article(self, response):
        yield Article(url=response.url)
