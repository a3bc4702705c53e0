"""Paths of the tiny in-repo datasets the evaluation tests use, and the benchmark script
a test module documents."""

from __future__ import annotations

import importlib
from pathlib import Path
from types import ModuleType

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


@pytest.fixture(scope="module")
def script(request: pytest.FixtureRequest) -> ModuleType:
    """The benchmark script of the test module: ``test_<name>_script.py`` tests
    ``benchmarks.<name>`` (the benchmarks are modules of the checkout, run as
    ``python -m benchmarks.<name>``)."""
    stem = Path(request.module.__file__).stem
    if not (stem.startswith("test_") and stem.endswith("_script")):
        raise LookupError(f"{stem}.py does not name a benchmark script (test_<name>_script.py)")
    return importlib.import_module(f"benchmarks.{stem[len('test_') : -len('_script')]}")
