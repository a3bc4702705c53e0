"""Main-content extraction for Scrapy: boilerpipe and friends as one composable filter chain.

Public API::

    from scrapy_boilerplate import extract, get_extractor, Extraction

    result = extract(html, url=None)  # the default extractor (DEFAULT_EXTRACTOR)
    result = extract(html, extractor="web2text")  # a named one, or a chain spec
    result.text, result.title, result.blocks
"""

from __future__ import annotations

from .document import Document, Label, TextBlock
from .errors import BoilerplateError, ChainSpecError, ModelUnavailableError
from .extraction import Extraction, Extractor, extract, get_extractor
from .families import register_families
from .filters.base import Chain, Filter
from .parse import parse_html
from .registry import EXTRACTORS, FILTERS, register_extractor, register_filter
from .render import render_json, render_text
from .site_memory import SiteMemory
from .spec import build_chain

__version__ = "0.1.0"

__all__ = [
    "EXTRACTORS",
    "FILTERS",
    "BoilerplateError",
    "Chain",
    "ChainSpecError",
    "Document",
    "Extraction",
    "Extractor",
    "Filter",
    "Label",
    "ModelUnavailableError",
    "SiteMemory",
    "TextBlock",
    "build_chain",
    "extract",
    "get_extractor",
    "parse_html",
    "register_extractor",
    "register_filter",
    "render_json",
    "render_text",
]

register_families()
