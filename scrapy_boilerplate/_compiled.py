"""Loading the optional compiled twins of the hot loops (Cython modules built at install).

Each compiled module mirrors pure-Python functions that stay beside it; a module uses the
compiled functions when they were built and ``SCRAPY_BOILERPLATE_PURE_PYTHON`` is not set.
"""

from __future__ import annotations

import importlib
import os
from typing import Any

__all__ = ["compiled_functions"]


def compiled_functions(package: str, *wanted: tuple[str, str]) -> tuple[Any, ...] | None:
    """The functions named by ``(module, function)`` pairs (modules relative to
    ``package``), or None when any is missing (not built: no C compiler at install) or
    ``SCRAPY_BOILERPLATE_PURE_PYTHON`` is set: then the caller keeps its Python twins."""
    if os.environ.get("SCRAPY_BOILERPLATE_PURE_PYTHON"):
        return None
    try:
        return tuple(
            getattr(importlib.import_module(f".{module}", package), name) for module, name in wanted
        )
    except (ImportError, AttributeError):
        return None
