"""Article metadata from the page's own declarations: JSON-LD, OpenGraph and Dublin
Core (read by extruct), schema.org microdata, meta tags, and the publication date found
by htmldate when the page declares none (the ``[article]`` extra).

* ``sources``: the candidate values of each field, by where they were found;
* ``article``: the first candidate of each field in order of trust, normalised to the
  field names and types of zyte-common-items' ``Article``.
"""

import functools
import importlib.util

from ..errors import BoilerplateError
from .article import METADATA_FIELDS, extract_metadata

__all__ = [
    "METADATA_FIELDS",
    "MetadataUnavailableError",
    "extract_metadata",
    "metadata_available",
    "require_metadata",
]

#: what reading metadata imports (the ``[article]`` extra)
REQUIRED = ("extruct", "htmldate")


class MetadataUnavailableError(BoilerplateError):
    """Reading metadata needs the ``[article]`` extra (extruct, htmldate)."""


@functools.lru_cache(maxsize=1)
def metadata_available() -> bool:
    """Whether the libraries metadata reading needs are installed (looked up once per
    process: extraction asks on every page)."""
    return all(importlib.util.find_spec(name) is not None for name in REQUIRED)


def require_metadata() -> None:
    """Raise :class:`MetadataUnavailableError`, naming the extra, if they are not."""
    if not metadata_available():
        raise MetadataUnavailableError(
            "reading article metadata needs extruct and htmldate: "
            "pip install 'scrapy-boilerplate-removal[article]'"
        )
