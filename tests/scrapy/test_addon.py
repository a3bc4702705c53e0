"""The add-on and the components' construction (no crawl)."""

from __future__ import annotations

from scrapy.utils.misc import load_object
from scrapy.utils.test import get_crawler

from scrapy_boilerplate.addon import BoilerplateAddon
from scrapy_boilerplate.middlewares import (
    BoilerplateDownloaderMiddleware,
    BoilerplateSpiderMiddleware,
)
from scrapy_boilerplate.pipelines import BoilerplatePipeline

ADDON_PATH = "scrapy_boilerplate.addon.BoilerplateAddon"


def components(settings, name):
    return {
        (load_object(k) if isinstance(k, str) else k): v for k, v in settings.getdict(name).items()
    }


def test_addon_enables_the_middlewares():
    crawler = get_crawler(settings_dict={"ADDONS": {ADDON_PATH: 0}})
    assert (
        components(crawler.settings, "DOWNLOADER_MIDDLEWARES")[BoilerplateDownloaderMiddleware]
        == 585
    )
    assert components(crawler.settings, "SPIDER_MIDDLEWARES")[BoilerplateSpiderMiddleware] == 950
    assert BoilerplatePipeline not in components(crawler.settings, "ITEM_PIPELINES")


def test_addon_enables_the_pipeline_when_there_is_an_html_field():
    crawler = get_crawler(
        settings_dict={"ADDONS": {BoilerplateAddon: 0}, "BOILERPLATE_HTML_FIELD": "html"}
    )
    assert components(crawler.settings, "ITEM_PIPELINES")[BoilerplatePipeline] == 100


def test_addon_keeps_an_order_set_by_the_user():
    crawler = get_crawler(
        settings_dict={
            "ADDONS": {ADDON_PATH: 0},
            "DOWNLOADER_MIDDLEWARES": {
                "scrapy_boilerplate.middlewares.BoilerplateDownloaderMiddleware": 570
            },
        }
    )
    mws = crawler.settings.getdict("DOWNLOADER_MIDDLEWARES")
    ours = [v for k, v in mws.items() if load_object(k) is BoilerplateDownloaderMiddleware]
    assert ours == [570]


def test_components_are_built_from_the_crawler():
    crawler = get_crawler(settings_dict={"BOILERPLATE_EXTRACTOR": "default"})
    for cls in (BoilerplateDownloaderMiddleware, BoilerplateSpiderMiddleware):
        component = cls.from_crawler(crawler)
        assert component.crawler is crawler
        assert component.config.extractor.name == "default"


def test_components_are_picklable_configs():
    """Settings values and the extractor survive pickling (JOBDIR, worker processes)."""
    import pickle

    crawler = get_crawler(settings_dict={"BOILERPLATE_EXTRACTOR": ["article", "min_words"]})
    mw = BoilerplateDownloaderMiddleware(crawler)
    clone = pickle.loads(pickle.dumps(mw.config.extractor))
    assert (
        clone.extract("<p>" + "word " * 30 + "</p>").text
        == mw.config.extractor.extract("<p>" + "word " * 30 + "</p>").text
    )
