"""What a request's ``meta["boilerplate"]`` may override, and the extractors built for the
specs it names."""

from __future__ import annotations

import json
import threading
from typing import Any

from ..extraction import Extractor, get_extractor
from ..spec import decode_spec

__all__ = [
    "OVERRIDE_KEYS",
    "SpecCache",
    "flag_override",
    "max_bytes_override",
]

#: keys a request may put in meta["boilerplate"] to override the settings
OVERRIDE_KEYS = frozenset(
    ("extractor", "chain", "max_bytes", "enabled", "annotated", "site_memory")
)


def max_bytes_override(value: Any) -> int:
    if value is None:
        return 0
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise ValueError(f"max_bytes must be a whole number of bytes (0: no limit), not {value!r}")
    return value


def flag_override(key: str, value: Any) -> bool:
    """A yes / no override (``annotated``: the result carries the page's annotated view;
    ``site_memory``: False reads the response apart from the crawl's memory of its
    site, and teaches it nothing), which must be ``True`` or ``False``."""
    if not isinstance(value, bool):
        raise ValueError(f"{key} must be True or False, not {value!r}")
    return value


class SpecCache:
    """Extractors for specs given per request (``meta``), built once per distinct spec.

    A request's meta may come from outside data (a queue, a database), so its specs may
    only import from ``allowed_imports`` (module prefixes; none by default): other import
    paths are rejected before anything is imported. Thread-safe; bounded, so that a crawl
    with a different spec on every request cannot grow it without limit (the oldest
    entries are dropped).
    """

    def __init__(self, allowed_imports: tuple[str, ...] = (), maxsize: int = 128) -> None:
        self.allowed_imports = allowed_imports
        self.maxsize = maxsize
        self._cache: dict[str, Extractor] = {}
        self._lock = threading.Lock()

    def get(self, spec: Any) -> Extractor:
        """The extractor for ``spec``; a bad spec raises ``ChainSpecError``."""
        spec = decode_spec(spec)
        if isinstance(spec, Extractor):
            return spec
        try:
            key = json.dumps(spec, sort_keys=True)
        except (TypeError, ValueError, RecursionError):
            return get_extractor(
                spec, allowed_imports=self.allowed_imports
            )  # holds objects: not cached
        with self._lock:
            found = self._cache.get(key)
        if found is not None:
            return found
        extractor = get_extractor(spec, allowed_imports=self.allowed_imports)
        with self._lock:
            if len(self._cache) >= self.maxsize:
                self._cache.pop(next(iter(self._cache)))
            self._cache[key] = extractor
        return extractor
