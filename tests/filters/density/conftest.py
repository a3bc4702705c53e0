"""A tiny tree whose statistics are worked out by hand, for the density family's tests."""

from __future__ import annotations

import pytest
from lxml import etree

from scrapy_boilerplate.filters.density import dom_stats

TINY = (
    '<html><body><div id="d"><p id="p1">Hello world</p><p id="p2">ab <a id="a1">link</a> cd</p>'
    '</div><ul id="u"><li id="l1"><a id="a2">Home</a></li></ul></body></html>'
)
# pre-order: body 0, div 1, p1 2, p2 3, a1 4, ul 5, li 6, a2 7
# characters: p1 "Hello world" 10; p2 "ab " 2 + " cd" 2; a1 "link" 4; a2 "Home" 4


@pytest.fixture
def tiny():
    return dom_stats(etree.fromstring(TINY, etree.HTMLParser()))
