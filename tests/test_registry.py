"""The registry: filters known by their snake_case name and their class name, and a user's
filter registered with ``register_filter``."""

from scrapy_boilerplate import build_chain, register_filter
from scrapy_boilerplate.filters import MinWordsFilter

from .helpers import DropShortBlocks


def test_class_names_work_as_well_as_registry_names():
    chain = build_chain(["NumWordsRulesClassifier", {"MinWordsFilter": {"min_words": 3}}])
    assert chain.filters[1] == MinWordsFilter(3)


def test_a_registered_user_filter_is_known_by_name():
    register_filter(DropShortBlocks)
    assert build_chain("drop_short_blocks") == DropShortBlocks()
