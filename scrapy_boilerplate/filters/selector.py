"""A site's own rules: the blocks inside the elements a CSS selector or an XPath matches
become boilerplate (a "related articles" box the extractor kept) or content.

Scrapy users write selectors every day (``response.css(...)``); a chain can end with one
for a site whose layout an extractor gets wrong, per spider or per domain
(``BOILERPLATE_DOMAIN_EXTRACTORS``)::

    ["boosted", {"selector": {"css": "aside, .related-stories"}}]
    ["boosted", {"selector": {"css": "div.story-body", "keep": True}}]
"""

from __future__ import annotations

from typing import Any

from lxml import etree

from ..document import Document
from .base import Filter

__all__ = ["SelectorFilter"]


class SelectorFilter(Filter):
    """Blocks whose text lies wholly inside elements matched by ``css`` or ``xpath`` (one
    of the two) become boilerplate, or content with ``keep=True``.

    The selector is compiled when the chain is built (a bad one gives ``ChainSpecError``)
    and run once per page; the blocks are then found in one pass over the matched
    subtrees (a match inside another match is not walked again), so the work after
    libxml2's evaluation is linear in the page. Selectors may only come from trusted
    specs (the project's settings, not a request's meta): an XPath can make libxml2
    work far more than linearly.
    """

    name = "selector"

    def __init__(
        self, css: str | None = None, xpath: str | None = None, keep: bool = False
    ) -> None:
        if (css is None) == (xpath is None):
            raise ValueError("give one of css or xpath")
        if css is not None:
            from cssselect import HTMLTranslator  # (what parsel's response.css builds on)

            xpath = HTMLTranslator().css_to_xpath(css)  # its errors name the problem
        self.css = css
        self.xpath = xpath
        self.keep = keep
        self._select = etree.XPath(xpath)  # (a bad one raises: the spec names it)
        if not isinstance(self._select(etree.fromstring("<html/>")), list):
            raise ValueError(f"the XPath must select elements, not compute a value: {xpath!r}")

    def __reduce__(self) -> Any:  # compiled XPaths do not pickle: rebuild from the source
        return (type(self), (self.css, None if self.css is not None else self.xpath, self.keep))

    def __call__(self, doc: Document) -> bool:
        root = doc.root
        if root is None or not doc.blocks:
            return False
        doc.check_deadline()
        inside: set[Any] = set()
        for element in self._select(root):
            # (document order: an element inside an earlier match is marked already)
            if isinstance(element, etree._Element) and element not in inside:
                inside.update(element.iter())
        changed = False
        for block in doc.blocks:
            if block.elements and all(e in inside for e in block.elements):
                if block.is_content != self.keep:
                    block.is_content = self.keep
                    changed = True
        return changed
