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
