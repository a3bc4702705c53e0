"""datatrove pipeline steps (the ``[datatrove]`` extra): our extractor where a datatrove
pipeline uses its ``Trafilatura`` step, and a WARC reader that gives it pages.

    from datatrove.executor import LocalPipelineExecutor
    from datatrove.pipeline.writers import JsonlWriter
    from scrapy_boilerplate.archives.datatrove_step import BoilerplateExtractor, WarcPages

    LocalPipelineExecutor(
        pipeline=[WarcPages("crawl/"), BoilerplateExtractor(), JsonlWriter("out/")],
        tasks=8, workers=2,
    ).run()

Any datatrove executor runs them (``SlurmPipelineExecutor``, ``RayPipelineExecutor``):
the steps hold only their settings, and each task builds its extractor once.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

try:
    from datatrove.data import Document as DatatroveDocument
    from datatrove.pipeline.extractors.base import BaseExtractor
    from datatrove.pipeline.readers.base import BaseDiskReader
except ImportError as exc:  # pragma: no cover - depends on the install
    raise ImportError(
        "the datatrove steps need datatrove: pip install 'scrapy-boilerplate-removal[datatrove]'"
    ) from exc

from ..encoding import decode_html
from ..extraction import Extractor, get_extractor
from ..registry import DEFAULT_EXTRACTOR
from .records import ArchivedPage, Skipped
from .warc import iter_warc

__all__ = ["BoilerplateExtractor", "WarcPages"]


class BoilerplateExtractor(BaseExtractor):
    """Replace each document's HTML with its main text (``extractor``: a name or spec, as
    everywhere in the package). A drop-in for datatrove's ``Trafilatura`` step: the
    same sandbox, ``timeout`` per document (seconds) and stats; documents left without
    text are dropped. ``budget``: the engine's own time budget per page (seconds), which
    ends a slow page cleanly before the sandbox has to kill its process."""

    name = "🧹 scrapy-boilerplate"

    def __init__(
        self, extractor: Any = DEFAULT_EXTRACTOR, timeout: float = 10.0, budget: float | None = None
    ) -> None:
        super().__init__(timeout)
        self.extractor = extractor
        self.budget = budget if budget is not None else timeout * 0.8
        self._built: Extractor | None = None

    def extract(self, text: str) -> str:
        """The main text of one HTML document ("" when nothing qualifies)."""
        if self._built is None:  # once per sandbox process
            self._built = get_extractor(self.extractor)
        return self._built.extract(text, timeout=self.budget).text


class WarcPages(BaseDiskReader):
    """HTML response records of WARC files as documents whose text is the page's HTML,
    decoded as the package decodes pages (the HTTP header's charset, then the page's own
    declaration, then detection). ``metadata`` holds url, date, status and content_type;
    the id is the WARC-Record-ID. Damaged records are skipped and counted in the step's
    stats (``skipped_<reason>``), never fatal. Takes datatrove's reader arguments
    (``data_folder``, ``glob_pattern``, ``limit``, ...)."""

    name = "🕷 WARC pages (scrapy-boilerplate)"
    _requires_dependencies = ["fastwarc"]

    def read_file(self, filepath: str) -> Iterator[DatatroveDocument]:
        """The documents of one WARC file (a path in the reader's data folder)."""
        # no transparent decompression: FastWARC reads gzip members itself, and finds the
        # next one after a broken member
        with self.data_folder.open(filepath, "rb", compression=None) as stream:
            for index, item in enumerate(iter_warc(stream, source=filepath)):
                if isinstance(item, Skipped):
                    self.stat_update(f"skipped_{item.reason}")
                    continue
                with self.track_time():
                    document = self.get_document_from_dict(_as_dict(item), filepath, index)
                if document:
                    yield document


def _as_dict(page: ArchivedPage) -> dict[str, Any]:
    html, _ = decode_html(page.body, content_type=page.content_type)
    return {
        "text": html,
        "id": page.record_id,
        "metadata": {
            "url": page.url,
            "date": page.date,
            "status": page.status,
            "content_type": page.content_type,
        },
    }
