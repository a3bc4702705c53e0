"""Web2Text's features (``neural/features.py``: ``page_features``, ``Normalizer``): shapes,
determinism, finiteness on bad input, the extension features."""

import os
import random

import numpy as np
import pytest

from scrapy_boilerplate.document import Document, TextBlock
from scrapy_boilerplate.neural.columns import BINARY_BLOCK, BLOCK_FEATURES
from scrapy_boilerplate.neural.features import Normalizer, page_features
from scrapy_boilerplate.neural.textstats import block_text_stats
from scrapy_boilerplate.parse import parse_html

ARTICLE = """<html><head><title>Bridge</title></head><body>
<div id="nav"><ul><li><a href="/">Home</a></li><li><a href="/news">News</a></li>
<li><a href="/sport">Sport</a></li></ul></div>
<div class="main"><h1>Council approves the budget</h1>
<p>The council approved the budget on Tuesday after a long debate about schools,
libraries and the repair of the old bridge over the river. It was 2019.</p>
<p>Critics said the plan is too small. Others asked: why now? Write to a@b.org.</p>
</div><div class="footer">&copy; 2024 The Paper. <a href="https://x.org">Terms</a>
<form><input type="text" name="q"></form></div></body></html>"""


def feats(html):
    return page_features(parse_html(html))


def check(b, e, n=None):
    assert b.dtype == np.float32 and e.dtype == np.float32
    assert b.shape[1] == 128 and e.shape[1] == 25
    assert e.shape[0] == max(b.shape[0] - 1, 0)
    if n is not None:
        assert b.shape[0] == n
    assert np.isfinite(b).all() and np.isfinite(e).all()


def test_article_features_are_deterministic_and_sensible():
    doc = parse_html(ARTICLE)
    b1, e1 = page_features(doc)
    b2, e2 = page_features(parse_html(ARTICLE))
    check(b1, e1, len(doc.blocks))
    assert np.array_equal(b1, b2) and np.array_equal(e1, e2)
    col = {name: i for i, name in enumerate(BLOCK_FEATURES)}
    texts = [b.text for b in doc.blocks]
    para = next(i for i, t in enumerate(texts) if t.startswith("The council"))
    home = texts.index("Home")
    assert b1[para, col["has_stopword"]] == 1 and b1[para, col["contains_year"]] == 1
    assert b1[para, col["tag_p"]] == 1 and b1[home, col["tag_a"]] == 1
    assert b1[home, col["p_tag_ul"]] == 1  # li > a collapses into the leaf, ul is the parent
    assert b1[para, col["n_punctuation"]] > 0
    assert (b1[:, col["root_contains_form_element"]] == 1).all()
    assert (b1[:, col["root_body_percentage"]] == 1).all()
    # list items of one list are siblings in the collapsed DOM: distance 2
    assert e1[home, 0] == 1
    q = next(i for i, t in enumerate(texts) if t.startswith("Critics"))
    assert b1[q, col["contains_email"]] == 1


@pytest.mark.parametrize(
    "html",
    [
        "",
        "   \n\t ",
        "<html><body></body></html>",
        "<p>one block only</p>",
        "<p>   </p><div>\u00a0</div>",
        "".join(chr(random.Random(1).randrange(0, 0x10FFFF)) for _ in range(3000)).replace(
            "\ud800", ""
        ),
        "<div>" * 3000 + "deep" + "</div>" * 3000,
        "<table>" + "<tr><td>cell</td></tr>" * 500 + "</table>",
        "<p>" + "a" * 100000 + "</p>",
        "<p>你好，世界。这是一个测试。</p><p>日本語のテキストです。</p><p>ภาษาไทย</p>",
    ],
    ids=["empty", "space", "nobody", "one", "nbsp", "garbage", "deep", "table", "long", "cjk"],
)
def test_bad_inputs_are_finite_and_deterministic(html):
    b, e = feats(html)
    check(b, e)
    b2, e2 = feats(html)
    assert np.array_equal(b, b2) and np.array_equal(e, e2)


def test_binary_garbage_bytes():
    data = os.urandom(1) and random.Random(7).randbytes(20000)
    doc = parse_html(data)
    b, e = page_features(doc)
    check(b, e, len(doc.blocks))


def test_100000_deep_dom():
    html = "<div>x" * 100000 + "</div>" * 100000
    doc = parse_html(html)
    b, e = page_features(doc)
    check(b, e, len(doc.blocks))


def test_no_blocks_and_one_block():
    b, e = page_features(Document(blocks=[], root=None))
    check(b, e, 0)
    doc = parse_html("<html><body><p>Only one block of text here.</p></body></html>")
    assert len(doc.blocks) == 1
    b, e = page_features(doc)
    check(b, e, 1)
    col = BLOCK_FEATURES.index("has_p")
    assert b[0, col] == 0  # a lone leaf is the root: no parent


def test_blocks_without_elements():
    doc = Document(blocks=[TextBlock("synthetic one"), TextBlock("and two")], root=None)
    b, e = page_features(doc)
    check(b, e, 2)


def test_normalizer_keeps_binary_columns():
    b, e = feats(ARTICLE)
    norm = Normalizer.fit(b, e)
    nb, ne = norm.transform(b, e)
    assert np.array_equal(nb[:, BINARY_BLOCK], b[:, BINARY_BLOCK])
    assert np.isfinite(nb).all() and np.isfinite(ne).all()
    again = Normalizer.from_dict(norm.to_dict())
    assert np.allclose(again.transform(b, e)[0], nb)


def test_normalizer_standardises_extra_columns_after_the_known_ones():
    # an experiment's own inputs (benchmarks/static_features.py) follow the feature columns
    b, e = feats(ARTICLE)
    extra = np.linspace(5.0, 9.0, len(b), dtype=np.float32)[:, None]
    nb, _ = Normalizer.fit(np.hstack([b, extra]), e).transform(np.hstack([b, extra]), e)
    assert np.array_equal(nb[:, :-1][:, BINARY_BLOCK], b[:, BINARY_BLOCK])
    assert abs(nb[:, -1].mean()) < 1e-5 and abs(nb[:, -1].std() - 1) < 1e-4


def test_extension_features():
    from scrapy_boilerplate.neural.columns import (
        EXT_BLOCK_FEATURES,
        EXT_EDGE_FEATURES,
        binary_masks,
        feature_names,
    )

    doc = parse_html(ARTICLE)
    b, e = page_features(doc, extended=True)
    names_b, names_e = feature_names(True)
    assert b.shape == (len(doc.blocks), 128 + len(EXT_BLOCK_FEATURES))
    assert e.shape == (len(doc.blocks) - 1, 25 + len(EXT_EDGE_FEATURES))
    assert len(names_b) == b.shape[1] and len(names_e) == e.shape[1]
    plain, plain_e = page_features(doc)
    assert np.array_equal(b[:, :128], plain) and np.array_equal(e[:, :25], plain_e)
    col = {n: i for i, n in enumerate(names_b)}
    texts = [blk.text for blk in doc.blocks]
    home = texts.index("Home")
    terms = next(i for i, t in enumerate(texts) if "Terms" in t)
    assert b[home, col["anc_class_nav"]] == 1
    assert b[terms, col["anc_class_footer"]] == 1
    assert b[home, col["anc_class_footer"]] == -1
    mb, me = binary_masks(True)
    assert mb.shape == (b.shape[1],) and me.shape == (e.shape[1],)
    for html in ("", "<p>x</p>", "<div>" * 3000 + "deep" + "</div>" * 3000):
        bb, ee = page_features(parse_html(html), extended=True)
        assert np.isfinite(bb).all() and np.isfinite(ee).all()
        assert bb.shape[1] == len(names_b) and ee.shape[1] == len(names_e)


def test_a_page_whose_only_block_is_empty_has_finite_features():
    # a block can be made empty by another filter before web2text runs
    from scrapy_boilerplate.document import Document, TextBlock

    assert block_text_stats([""], [0.0])[0].tolist()[:2] == [1.0, 0.0]  # 1 char (floor), 0 words
    b, e = page_features(Document(blocks=[TextBlock("")]))
    check(b, e, 1)
