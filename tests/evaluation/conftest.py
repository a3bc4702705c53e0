"""Paths of the tiny in-repo datasets the evaluation tests use."""

from __future__ import annotations

from pathlib import Path

import pytest

FIXTURES = Path(__file__).parent / "fixtures"


@pytest.fixture
def fixtures_dir() -> Path:
    """The folder holding every fixture dataset."""
    return FIXTURES


@pytest.fixture
def mini_dir() -> Path:
    """3 pages in the project's format: gzip + plain, one Chinese, snippets on two."""
    return FIXTURES / "mini"


@pytest.fixture
def bench_dir() -> Path:
    """2 pages in the article-extraction benchmark layout."""
    return FIXTURES / "bench"


@pytest.fixture
def snippets_dir() -> Path:
    """2 pages with snippets only (main_text is null)."""
    return FIXTURES / "snippets"
