"""``benchmarks.boosted_page_kind``: columns that say what kind of page it is (an
experiment on the default labeler's features)."""

from __future__ import annotations

import numpy as np
import pytest

from scrapy_boilerplate.parse import parse_html

STORY = " ".join(["The council met on Tuesday and voted on the new budget for schools."] * 3)


def _page(head: str = "", body: str = "") -> str:
    return f"<html><head><title>t</title>{head}</head><body>{body}</body></html>"


@pytest.mark.parametrize(
    "head, expected",
    [
        ('<meta property="og:type" content="article">', True),
        ('<meta property="og:type" content="website">', False),
        ('<script type="application/ld+json">{"@type": "NewsArticle"}</script>', True),
        ('<script type="application/ld+json">{"@type": ["BlogPosting"]}</script>', True),
        ('<script type="application/ld+json">{"@type": "Product"}</script>', False),
        ("", False),
    ],
)
def test_a_page_declares_an_article_by_open_graph_or_json_ld(script, head, expected):
    doc = parse_html(_page(head, f"<p>{STORY}</p>"))
    assert script.declares_article(doc.root) is expected


def test_the_columns_describe_the_page_on_every_block(script):
    body = (
        f"<h1>Budget</h1><article><p>{STORY}</p><p>{STORY}</p></article>"
        '<ul><li><a href="/a">Other news one</a></li><li><a href="/b">Other two</a></li></ul>'
        f'<div class="comments"><p>{STORY}</p></div>'
    )
    doc = parse_html(_page('<meta property="og:type" content="article">', body))
    columns = script.page_kind_columns(doc)
    assert columns.shape == (len(doc.blocks), len(script.COLUMNS))
    assert (columns == columns[0]).all()  # page-level: the same on every row
    row = dict(zip(script.COLUMNS, columns[0], strict=True))
    assert row["page_declares_article"] == 1 and row["page_declares_discussion"] == 0
    assert row["page_log_h1"] == pytest.approx(np.log(2))
    # three blocks of 39 words read like text, inside and outside <article>
    assert row["page_article_share"] == pytest.approx(2 * 39 / (3 * 39 + 1 + 6), abs=0.02)
    assert row["page_comment_share"] == pytest.approx(39 / (3 * 39 + 1 + 6), abs=0.02)
    assert 0 < row["page_list_share"] < 0.1
    shares = [name for name in script.COLUMNS if name.endswith("_share")]
    assert len(shares) == 6 and all(0.0 <= row[name] <= 1.0 for name in shares)


def test_a_page_without_blocks_has_no_rows(script):
    doc = parse_html("")
    assert script.page_kind_columns(doc).shape == (0, len(script.COLUMNS))
