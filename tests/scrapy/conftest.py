"""Fixtures for the Scrapy layer's tests: settings (add-on or manual); the crawl runner is
in the top conftest (the archive tests crawl too)."""

from __future__ import annotations

import pytest

from .helpers import ADDON_SETTINGS, MANUAL_SETTINGS


@pytest.fixture(params=["addon", "manual"])
def plugin_settings(request):
    """The plugin enabled through the add-on, then by listing the components by hand."""
    return dict(ADDON_SETTINGS if request.param == "addon" else MANUAL_SETTINGS)
