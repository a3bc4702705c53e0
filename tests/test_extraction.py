"""Extractor objects (``get_extractor``): pickling, one extractor serving many threads,
tracing which filter decided each block."""

import pickle
from concurrent.futures import ThreadPoolExecutor

from scrapy_boilerplate import get_extractor

from .helpers import PAGE


def test_extractors_pickle_and_give_the_same_result():
    extractor = get_extractor(["article", {"min_words": {"min_words": 5}}])
    clone = pickle.loads(pickle.dumps(extractor))
    assert clone.extract(PAGE).text == extractor.extract(PAGE).text


def test_one_extractor_serves_many_threads():
    extractor = get_extractor("article")
    expected = extractor.extract(PAGE).text
    with ThreadPoolExecutor(4) as pool:
        results = list(pool.map(lambda _: extractor.extract(PAGE).text, range(40)))
    assert results == [expected] * 40


def test_tracing_records_which_filter_decided_each_block():
    result = get_extractor("article").extract(PAGE, trace=True)
    deciders = {b.decided_by for b in result.blocks}
    assert "keep_largest_block" in deciders or "block_proximity_fusion" in deciders
    assert all(b.decided_by for b in result.blocks if b.is_content)


def test_a_time_budget_ends_an_extraction_with_a_reason():
    html = "<html><head><title>Big</title></head><body>" + "<p>some words here</p>" * 20_000
    for name in ("article", "web2text", "cetd"):
        result = get_extractor(name).extract(html, timeout=1e-6)
        assert (result.text, result.reason, result.title) == ("", "timeout", "Big")
        assert set(result.timings) == {"parse_ms"}
        assert get_extractor(name).extract(html, timeout=60).reason != "timeout"


def test_the_time_budget_is_checked_before_each_filter():
    import time

    from scrapy_boilerplate import Filter, get_extractor

    calls = []

    class Slow(Filter):
        name = "slow"

        def __call__(self, doc):
            calls.append(1)
            time.sleep(0.05)
            return False

    result = get_extractor([Slow(), Slow(), Slow()]).extract("<p>text</p>", timeout=0.06)
    assert result.reason == "timeout" and len(calls) == 2
