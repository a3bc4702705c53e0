"""``benchmarks.declared_products``: which pages declare a product, and the patch it
runs under."""

from __future__ import annotations

from benchmarks.declared_products import declares_product, products_routed
from scrapy_boilerplate.neural.boosted import BoostedLabeler
from scrapy_boilerplate.parse import build_tree


def _root(head: str, body: str = "<p>A page</p>"):
    return build_tree(f"<html><head>{head}</head><body>{body}</body></html>")[0]


def test_a_product_is_declared_by_json_ld_microdata_or_open_graph():
    json_ld = '<script type="application/ld+json">{"@type": ["Product"], "name": "A"}</script>'
    assert declares_product(_root(json_ld))
    assert declares_product(_root("", '<div itemscope itemtype="https://schema.org/Product">'))
    assert declares_product(_root('<meta property="og:type" content="product.item">'))


def test_a_page_that_only_mentions_products_declares_none():
    mention = '<script type="application/ld+json">{"@type": "Article", "about": "Product"}</script>'
    assert not declares_product(_root(mention))
    assert not declares_product(_root("", '<div itemtype="https://schema.org/ProductGroup">'))
    assert not declares_product(None)


def test_the_routing_is_undone_after_the_run():
    own = BoostedLabeler.model_for
    with products_routed(gate_on_article=True):
        assert BoostedLabeler.model_for is not own
    assert BoostedLabeler.model_for is own
