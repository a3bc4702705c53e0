"""Reading and checking the BOILERPLATE_* settings (no crawl)."""

from __future__ import annotations

import sys

import pytest
from scrapy.exceptions import NotConfigured, ScrapyDeprecationWarning
from scrapy.settings import Settings

from scrapy_boilerplate import get_extractor
from scrapy_boilerplate.filters import Filter
from scrapy_boilerplate.registry import DEFAULT_EXTRACTOR
from scrapy_boilerplate.settings import DEFAULTS, BoilerplateSettingError, load_config


def config(**values):
    return load_config(Settings({f"BOILERPLATE_{k}": v for k, v in values.items()}))


def test_defaults():
    c = config()
    assert c.extractor is get_extractor(DEFAULT_EXTRACTOR) is get_extractor()
    assert (c.text_field, c.title_field, c.html_field) == ("main_text", "title", None)
    assert c.overwrite is False
    assert c.max_bytes == DEFAULTS["BOILERPLATE_MAX_BYTES"] == 5 * 1024 * 1024
    assert c.output_format == "text"
    assert (c.executor, c.workers) == ("thread", 4)
    assert c.domain_extractors == ()


def test_worker_processes_default_to_one_per_core_but_the_crawls_own():
    from scrapy_boilerplate.settings import usable_cpus

    assert config(EXECUTOR="process").workers == max(1, usable_cpus() - 1)
    assert config(EXECUTOR="process", WORKERS=3).workers == 3
    assert config(EXECUTOR="thread", WORKERS=None).workers == 4


def test_disabled_raises_not_configured():
    with pytest.raises(NotConfigured, match="BOILERPLATE_ENABLED"):
        config(ENABLED=False)
    with pytest.raises(NotConfigured):
        config(ENABLED="False")  # from the command line: -s BOILERPLATE_ENABLED=False


def test_presets_and_explicit_fields():
    assert (config(ITEM_PRESET="zyte").text_field, config(ITEM_PRESET="zyte").title_field) == (
        "articleBody",
        "headline",
    )
    c = config(ITEM_PRESET="zyte", TEXT_FIELD="body")
    assert (c.text_field, c.title_field) == ("body", "headline")
    assert config(TITLE_FIELD=None).title_field is None  # no title
    assert config(TITLE_FIELD="").title_field is None


def test_the_extractor_setting_takes_any_spec():
    assert config(EXTRACTOR="default").extractor.name == "default"
    c = config(EXTRACTOR=["num_words_rules", {"min_words": {"min_words": 20}}])
    assert "MinWordsFilter(min_words=20)" in repr(c.extractor.chain)


def test_a_spec_from_the_command_line_is_json():
    c = config(EXTRACTOR='["num_words_rules", {"min_words": {"min_words": 20}}]')
    assert "MinWordsFilter(min_words=20)" in repr(c.extractor.chain)


def test_the_chain_setting_still_works_with_a_deprecation_warning():
    with pytest.warns(ScrapyDeprecationWarning, match="BOILERPLATE_CHAIN is deprecated"):
        c = config(CHAIN='["num_words_rules", {"min_words": {"min_words": 20}}]')
    assert "MinWordsFilter(min_words=20)" in repr(c.extractor.chain)


def test_the_deprecated_chain_setting_and_the_extractor_by_priority():
    settings = Settings()
    settings.set("BOILERPLATE_CHAIN", ["keep_everything"], priority="project")
    settings.set("BOILERPLATE_EXTRACTOR", "default", priority="spider")
    with pytest.warns(ScrapyDeprecationWarning):
        assert load_config(settings).extractor.name == "default"
    settings = Settings()
    settings.set("BOILERPLATE_CHAIN", ["keep_everything"], priority="project")
    settings.set("BOILERPLATE_EXTRACTOR", "default", priority="project")
    with pytest.warns(ScrapyDeprecationWarning):
        assert "MarkEverythingContentFilter" in repr(load_config(settings).extractor.chain)


def test_domain_extractors_match_subdomains_longest_first():
    c = config(
        DOMAIN_EXTRACTORS={
            "example.com": "default",
            "news.example.com": "keep_everything",
            ".Blog.Org": ["num_words_rules"],
        }
    )
    assert c.extractor_for("example.com").name == "default"
    assert c.extractor_for("www.example.com").name == "default"
    assert c.extractor_for("news.example.com").name == "keep_everything"
    assert c.extractor_for("a.news.example.com").name == "keep_everything"
    assert c.extractor_for("notexample.com").name == DEFAULT_EXTRACTOR
    assert c.extractor_for("my.blog.org.").name == "num_words_rules"
    assert c.extractor_for_url("https://EXAMPLE.com:8080/x").name == "default"
    assert c.extractor_for(None).name == DEFAULT_EXTRACTOR


@pytest.mark.parametrize(
    ("values", "message"),
    [
        ({"EXTRACTOR": ["article", "no_such"]}, r"BOILERPLATE_EXTRACTOR: chain entry 1 \('no_such"),
        ({"EXTRACTOR": ["pkg_that_does_not_exist.Filter"]}, "cannot be imported"),
        ({"EXTRACTOR": "nope"}, "BOILERPLATE_EXTRACTOR: chain entry 0"),
        ({"EXTRACTOR": ""}, "BOILERPLATE_EXTRACTOR is empty"),
        ({"EXTRACTOR": [{"min_words": {"bogus": 1}}]}, "bad parameters"),
        ({"DOMAIN_EXTRACTORS": {"a.com": "nope"}}, r"BOILERPLATE_DOMAIN_EXTRACTORS\['a.com'\]"),
        ({"DOMAIN_EXTRACTORS": {"http://a.com": "article"}}, "not a domain name"),
        ({"DOMAIN_EXTRACTORS": ["a.com"]}, "must be a dict"),
        ({"MAX_BYTES": -1}, "BOILERPLATE_MAX_BYTES must be 0 or more"),
        ({"MAX_BYTES": "5MB"}, "BOILERPLATE_MAX_BYTES must be a whole number"),
        ({"WORKERS": 1.5}, "BOILERPLATE_WORKERS"),
        ({"OUTPUT_FORMAT": "pdf"}, "BOILERPLATE_OUTPUT_FORMAT must be one of"),
        ({"ITEM_PRESET": "schema"}, "BOILERPLATE_ITEM_PRESET"),
        ({"TEXT_FIELD": ""}, "BOILERPLATE_TEXT_FIELD"),
        ({"OVERWRITE": "maybe"}, "BOILERPLATE_OVERWRITE"),
        ({"EXECUTOR": "gpu"}, "BOILERPLATE_EXECUTOR must be one of"),
        ({"EXTRACTOR": [{"min_words": {"min_words": "20"}}]}, "min_words must be int, not '20'"),
        ({"EXTRACTOR": [{"keep_everything_min_words": {"min_words": None}}]}, "must be int"),
        ({"EXTRACTOR": ["builtins.print"]}, "is not a Filter subclass"),
        ({"TIMEOUT": "soon"}, "BOILERPLATE_TIMEOUT must be a number of seconds"),
        ({"TIMEOUT": -1}, "BOILERPLATE_TIMEOUT must be above 0"),
        ({"ALLOWED_IMPORTS": [3]}, "BOILERPLATE_ALLOWED_IMPORTS must be a list"),
        ({"ALLOWED_IMPORTS": ["my project"]}, "is not a module name"),
    ],
)
def test_bad_values_name_the_setting(values, message):
    with pytest.raises(BoilerplateSettingError, match=message):
        config(**values)


def test_setting_error_is_a_value_error():
    with pytest.raises(ValueError):
        config(WORKERS=-2)


def test_no_limits_and_inline_extraction():
    c = config(MAX_BYTES=0, WORKERS=0)
    assert (c.max_bytes, c.workers) == (0, 0)


class Unpicklable(Filter):
    name = "unpicklable"

    def __init__(self):
        self.check = lambda doc: False

    def __call__(self, doc):
        return self.check(doc)


def test_process_executor_needs_a_picklable_chain():
    from scrapy.settings import Settings

    from scrapy_boilerplate.settings import BoilerplateSettingError, load_config

    settings = Settings(
        {"BOILERPLATE_EXECUTOR": "process", "BOILERPLATE_EXTRACTOR": ["article", Unpicklable()]}
    )
    with pytest.raises(BoilerplateSettingError, match="must pickle"):
        load_config(settings)
    settings.set("BOILERPLATE_EXECUTOR", "thread")
    assert load_config(settings).executor == "thread"


def test_the_time_budget_and_allowed_imports():
    assert config().timeout == 10.0 and config().allowed_imports == ()
    assert config(TIMEOUT=0).timeout is None and config(TIMEOUT=None).timeout is None
    assert config(TIMEOUT="2.5").timeout == 2.5
    assert config(ALLOWED_IMPORTS=["myproject.filters"]).allowed_imports == ("myproject.filters",)
    assert config(ALLOWED_IMPORTS="a.b, c").allowed_imports == ("a.b", "c")


def test_a_spec_in_settings_runs_no_code_before_it_is_rejected(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(BoilerplateSettingError, match="not a Filter subclass"):
        config(EXTRACTOR=[{"subprocess.Popen": {"args": ["touch", "marker"]}}])
    assert not (tmp_path / "marker").exists()


def test_an_extractor_whose_model_cannot_load_stops_the_crawl_at_start(monkeypatch):
    from scrapy_boilerplate.extraction import _named_extractor
    from scrapy_boilerplate.neural import boosted as boosted_module
    from scrapy_boilerplate.neural import model as model_module

    monkeypatch.setitem(sys.modules, "onnxruntime", None)
    monkeypatch.setattr(model_module, "_models", {})
    monkeypatch.setattr(boosted_module, "_models", {})
    _named_extractor.cache_clear()
    try:
        with pytest.raises(BoilerplateSettingError, match="needs onnxruntime"):
            config(EXTRACTOR="web2text")
        with pytest.raises(BoilerplateSettingError, match="boosted labeler needs onnxruntime"):
            config()  # the default extractor is learned: the same clear error at start
    finally:
        _named_extractor.cache_clear()


def test_the_site_memory_is_a_number_of_sites_on_by_default():
    from scrapy_boilerplate.site_memory import MAX_SITES

    assert config().site_memory == MAX_SITES == DEFAULTS["BOILERPLATE_SITE_MEMORY"]
    assert config(SITE_MEMORY=16).site_memory == 16 and config(SITE_MEMORY="16").site_memory == 16
    for off in (0, False, "false", None):
        assert config(SITE_MEMORY=off).site_memory == 0
    assert (
        config(SITE_MEMORY=True).site_memory == config(SITE_MEMORY="True").site_memory == MAX_SITES
    )
    for bad in (-1, "many", 2.5):
        with pytest.raises(BoilerplateSettingError, match="BOILERPLATE_SITE_MEMORY"):
            config(SITE_MEMORY=bad)
