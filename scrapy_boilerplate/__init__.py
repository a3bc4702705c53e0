"""Main-content extraction for Scrapy: boilerpipe and friends as one composable filter chain.

Public API::

    from scrapy_boilerplate import extract, get_extractor, Extraction

    result = extract(html, url=None, extractor="article")
    result.text, result.title, result.blocks
"""

from __future__ import annotations

from .chains import EXTRACTORS, Chain, build_chain, register_extractor
from .document import Document, Label, TextBlock
from .errors import BoilerplateError, ChainSpecError, ModelUnavailableError
from .extraction import Extraction, Extractor, extract, get_extractor
from .filters import FILTERS, Filter, register_filter
from .parse import parse_html
from .render import render_json, render_text

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
