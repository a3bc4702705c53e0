"""The density family's DOM walk and labelling (``filters/density/_dom.py``): statistics on
the tiny tree of conftest.py, lengths in characters, hidden text, trees without ``<body>``,
combine modes."""

from __future__ import annotations

import pytest
from lxml import etree

from scrapy_boilerplate import Document, TextBlock, build_chain, extract
from scrapy_boilerplate.errors import ChainSpecError
from scrapy_boilerplate.filters import MarkEverythingContentFilter
from scrapy_boilerplate.filters.density import CETDTPCFilter, count_words, dom_stats, start_element
from scrapy_boilerplate.parse import parse_html

from .helpers import ARTICLE_PAGE, CLASSES, METHODS, NAV, PARAS


def test_dom_stats_on_a_tiny_tree(tiny):
    assert tiny.tags == ["body", "div", "p", "p", "a", "ul", "li", "a"]
    assert tiny.parent.tolist() == [-1, 0, 1, 1, 3, 0, 5, 6]
    assert tiny.end.tolist() == [8, 5, 3, 5, 5, 8, 8, 8]
    # C: subtree characters. p2 = 2 + 4 + 2, div = 10 + 8, ul = li = a2 = 4, body = 22
    assert tiny.C.tolist() == [22, 18, 10, 8, 4, 4, 4, 4]
    # T = sum over the children of (T + 1): p2 = 1, div = 1 + 2, li = 1, ul = 2, body = 4 + 3
    assert tiny.T.tolist() == [7, 3, 0, 1, 0, 2, 1, 0]
    # LC: a link has all of its C; others sum their children's
    assert tiny.LC.tolist() == [8, 4, 0, 4, 4, 4, 4, 4]
    # LT: p2 = 0 + 1 (a1 is a link); div = 0 + 1 (no child is all links: p1 has LT = 0,
    # p2 has LC 4 != C 8); li = 1; ul = 1 + 1 (li: LT = T = 1, LC = C = 4);
    # body = 1 + 2 + 1 (ul: LT = T = 2, LC = C = 4)
    assert tiny.LT.tolist() == [4, 1, 0, 1, 0, 2, 1, 0]
    assert tiny.in_link.tolist() == [False] * 4 + [True, False, False, True]
    # text runs in document order: owner and characters
    assert tiny.run_owner.tolist() == [2, 3, 4, 3, 7]
    assert tiny.run_len.tolist() == [10, 2, 4, 2, 4]


def test_lengths_are_characters_not_words():
    root = etree.fromstring("<html><body><p>市议会星期二投票</p><p>two  words</p></body></html>")
    stats = dom_stats(root)
    # non-whitespace characters: 8 Han characters; "two" + "words" = 8
    assert stats.own.tolist() == [0, 8, 8]
    assert count_words("市议会 votes 星期二") == 7  # 3 + 1 + 3: each CJK character a word


@pytest.mark.parametrize("name", METHODS)
def test_hidden_text_is_not_content(name):
    hidden = "\n".join(
        f'<div style="DISPLAY: None">{p} {p}</div><div hidden>{p} {p}</div>' for p in PARAS
    )
    html = ARTICLE_PAGE.replace(
        '<div id="footer">', f'<div id="junk">{hidden}</div><div id="footer">'
    )
    blocks = extract(html, extractor=name).blocks
    hidden_blocks = [b for b in blocks if b.text.count(PARAS[0]) == 2]
    assert hidden_blocks and not any(b.is_content for b in hidden_blocks)


@pytest.mark.parametrize("cls", CLASSES)
def test_a_tree_without_body_starts_at_the_root(cls):
    paras = "".join(f'<p id="p{i}">{p}</p>' for i, p in enumerate(PARAS))
    links = "".join(f'<li><a id="a{i}" href="/{i}">{t}</a></li>' for i, t in enumerate(NAV))
    root = etree.fromstring(f'<html><ul id="nav">{links}</ul><div id="main">{paras}</div></html>')
    assert start_element(root) is root
    by_id = {el.get("id"): el for el in root.iter() if el.get("id")}
    blocks = [TextBlock(t, 2, elements=[by_id[f"a{i}"]]) for i, t in enumerate(NAV)]
    blocks += [TextBlock(p, 25, elements=[by_id[f"p{i}"]]) for i, p in enumerate(PARAS)]
    doc = Document(blocks=blocks, root=root)
    assert cls()(doc) is True
    flags = [b.is_content for b in doc.blocks]
    assert flags[len(NAV) :] == [True] * len(PARAS)
    # (CEPR and CETR smooth over neighbours: the last links, next to the article, may pass)
    assert flags[: len(NAV) - 4] == [False] * (len(NAV) - 4)


def test_combine_modes():
    doc = parse_html(ARTICLE_PAGE)
    MarkEverythingContentFilter()(doc)
    CETDTPCFilter(combine="or")(doc)
    assert all(b.is_content for b in doc.blocks)  # "or" only adds
    CETDTPCFilter(combine="and")(doc)
    kept = [b.text for b in doc.blocks if b.is_content]
    assert PARAS[0] in kept and not any("Section" in t for t in kept)
    with pytest.raises(ValueError):
        CETDTPCFilter(combine="xor")
    with pytest.raises(ChainSpecError):
        build_chain([{"cetd": {"combine": "xor"}}])
