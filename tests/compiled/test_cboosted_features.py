"""The boosted labeler's compiled page columns (``neural/_cboosted_features.pyx``) give
what ``boosted_features.page_columns_python`` gives."""

import numpy as np

from scrapy_boilerplate.neural import boosted_features
from scrapy_boilerplate.neural.features import page_features_and_structure
from scrapy_boilerplate.parse import parse_html

from .helpers import compiled, golden_pages, soup


def columns_agree(html: str) -> bool:
    doc = parse_html(html)
    if not doc.blocks:
        return True
    web2text, edges, s = page_features_and_structure(doc, extended=True)
    want = boosted_features.page_columns_python(doc.blocks, web2text, edges, s)
    got = boosted_features.page_columns(doc.blocks, web2text, edges, s)
    assert got.dtype == want.dtype == np.float32 and got.shape == want.shape
    return bool(np.allclose(got, want, rtol=1e-6, atol=1e-6))


@compiled
def test_both_page_column_passes_agree_on_every_golden_and_crafted_page():
    differing = [name for name, html in golden_pages() if not columns_agree(html)]
    assert differing == []


@compiled
def test_both_page_column_passes_agree_on_random_tag_soup():
    assert all(columns_agree(soup(seed)) for seed in range(40))


@compiled
def test_both_page_column_passes_agree_on_the_smallest_pages():
    # one block (no edges, a window past both ends), two, and blocks of no words
    for html in (
        "<p>only one block</p>",
        "<p>one</p><p>two <a href=x>linked words</a></p>",
        "<div><p>&nbsp;</p><p>.</p><ul><li>a</li><li>b</li></ul><h1>Head line</h1></div>",
    ):
        assert columns_agree(html)


@compiled
def test_both_page_column_passes_agree_on_a_long_page():
    # more blocks than the widest window: every window, neighbour and container case
    paragraphs = "".join(
        f"<div class='c{i % 7}'><p>{'word ' * (i % 23)}<a href=#>{'link ' * (i % 5)}</a></p></div>"
        for i in range(300)
    )
    assert columns_agree(f"<html><body><nav>{paragraphs[:2000]}</nav>{paragraphs}</body></html>")
