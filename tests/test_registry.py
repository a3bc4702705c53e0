"""The registry: filters known by their snake_case name and their class name, and a user's
filter registered with ``register_filter``, a class or a plain function."""

import pytest

from scrapy_boilerplate import build_chain, register_filter
from scrapy_boilerplate.filters import MinWordsFilter

from .helpers import PAGE, DropShortBlocks


def test_class_names_work_as_well_as_registry_names():
    chain = build_chain(["NumWordsRulesClassifier", {"MinWordsFilter": {"min_words": 3}}])
    assert chain.filters[1] == MinWordsFilter(3)


def test_a_registered_user_filter_is_known_by_name():
    register_filter(DropShortBlocks)
    assert build_chain("drop_short_blocks") == DropShortBlocks()


def drop_everything(doc):
    """A plain function filter (module-level, so that it pickles)."""
    changed = any(block.is_content for block in doc.blocks)
    for block in doc.blocks:
        block.is_content = False
    return changed


def test_a_plain_function_is_a_filter_once_registered():
    import pickle

    from scrapy_boilerplate import FILTERS, extract, get_extractor, register_filter

    assert register_filter(drop_everything) is drop_everything
    try:
        extractor = get_extractor(["keep_everything", "drop_everything"])
        assert extract(PAGE, extractor=extractor).reason == "no_content"
        assert pickle.loads(pickle.dumps(extractor)).extract(PAGE).reason == "no_content"
        register_filter(lambda doc: False, name="nothing")
        assert get_extractor(["keep_everything", "nothing"]).extract(PAGE).text
    finally:
        FILTERS.pop("drop_everything", None)
        FILTERS.pop("nothing", None)
    with pytest.raises(ValueError, match="has no name"):
        register_filter(lambda doc: False)
    with pytest.raises(TypeError):
        register_filter(42)
