"""Read labelled pages, lazily: one :class:`Page` at a time, read from disk when it is due.

Two layouts are understood:

* the project's dataset format (``../data/README.md``)::

      <dataset>/truth.jsonl            one JSON object per page (id, url, main_text, title,
                                       lang, page_file, with, without, ...extras)
      <dataset>/pages/<id>.html[.gz]   the page, stored as UTF-8

* the layout of the widely used article-extraction benchmark::

      <dataset>/ground-truth.json      {id: {"articleBody": ..., "url": ...}, ...}
      <dataset>/html/<id>.html.gz      the page

Pages are decoded as UTF-8 (any ``<meta charset>`` inside is ignored): extractors get a
``str``. A folder that holds neither layout but has dataset folders inside it (such as the
project's ``data/`` folder) stands for all of them, see :func:`find_datasets`.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..encoding import read_page_bytes

__all__ = [
    "ArticleBenchmarkDataset",
    "Dataset",
    "DatasetError",
    "JsonlDataset",
    "Page",
    "decode_page",
    "find_datasets",
    "open_dataset",
    "read_page_bytes",
]

TRUTH_FILE = "truth.jsonl"
BENCHMARK_TRUTH_FILE = "ground-truth.json"

# truth.jsonl keys that become Page attributes; every other key goes to Page.extras
_PAGE_KEYS = frozenset(("id", "url", "main_text", "title", "lang", "with", "without", "page_file"))


class DatasetError(ValueError):
    """A path that is not a dataset, or a dataset whose files are broken."""


@dataclass(slots=True)
class Page:
    """One labelled page.

    ``main_text`` is the reference text (``None`` when the set only has snippets);
    ``with_snippets`` / ``without_snippets`` are the snippets a correct extraction must /
    must not contain (``None`` when the set has none). ``extras`` keeps every other field
    of the record (``source``, ``split``, ``page_type``, ...).
    """

    id: str
    html: str
    url: str | None = None
    main_text: str | None = None
    title: str | None = None
    lang: str | None = None
    with_snippets: tuple[str, ...] | None = None
    without_snippets: tuple[str, ...] | None = None
    extras: dict[str, Any] = field(default_factory=dict)

    @property
    def has_snippets(self) -> bool:
        """True if the page has ``with`` or ``without`` snippets."""
        return bool(self.with_snippets) or bool(self.without_snippets)


def decode_page(data: bytes) -> str:
    """Decode a stored page as UTF-8 (bad bytes become U+FFFD; a BOM is dropped)."""
    text = data.decode("utf-8", errors="replace")
    return text[1:] if text.startswith("\ufeff") else text


def _snippets(value: Any) -> tuple[str, ...] | None:
    if value is None:
        return None
    if isinstance(value, str):
        return (value,)
    return tuple(str(v) for v in value)


class Dataset:
    """A labelled set of pages. Iterating reads the pages one by one (a fresh pass each time)."""

    #: the layout, ``"jsonl"`` (project format) or ``"article-benchmark"``
    kind: str = ""

    def __init__(self, path: str | os.PathLike[str], name: str | None = None) -> None:
        self.path = Path(path)
        self.name = name or self.path.resolve().name

    def __repr__(self) -> str:
        return f"{type(self).__name__}({str(self.path)!r}, name={self.name!r})"

    def __iter__(self) -> Iterator[Page]:
        return self.iter_pages()

    def iter_pages(self, limit: int | None = None) -> Iterator[Page]:
        """Yield the pages in the set's order, at most ``limit`` of them."""
        raise NotImplementedError

    def iter_labels(self, limit: int | None = None) -> Iterator[Page]:
        """Like :meth:`iter_pages`, without reading the pages (``html`` is "")."""
        raise NotImplementedError

    def count(self) -> int:
        """The number of pages (reads the truth file, not the pages)."""
        raise NotImplementedError


class JsonlDataset(Dataset):
    """A folder in the project's format: ``truth.jsonl`` plus ``pages/<id>.html[.gz]``."""

    kind = "jsonl"

    def _records(self) -> Iterator[dict[str, Any]]:
        truth = self.path / TRUTH_FILE
        with truth.open(encoding="utf-8") as fh:
            for lineno, line in enumerate(fh, 1):
                if not line.strip():
                    continue
                try:
                    record = json.loads(line)
                except json.JSONDecodeError as exc:
                    raise DatasetError(f"{truth}:{lineno}: not JSON: {exc}") from exc
                if not isinstance(record, dict) or "id" not in record:
                    raise DatasetError(f"{truth}:{lineno}: a record needs an 'id'")
                yield record

    def _page_path(self, record: dict[str, Any]) -> Path:
        page_file = record.get("page_file")
        if page_file:
            return self.path / page_file
        pid = str(record["id"])
        for suffix in (".html.gz", ".html", ".htm.gz", ".htm"):
            candidate = self.path / "pages" / f"{pid}{suffix}"
            if candidate.exists():
                return candidate
        raise DatasetError(f"{self.path}: no page file for id {pid!r}")

    def iter_pages(self, limit: int | None = None) -> Iterator[Page]:
        """Yield the pages of ``truth.jsonl`` in file order, at most ``limit``."""
        return self._iter(limit, with_html=True)

    def iter_labels(self, limit: int | None = None) -> Iterator[Page]:
        """Like :meth:`iter_pages`, without reading the pages (``html`` is "")."""
        return self._iter(limit, with_html=False)

    def _iter(self, limit: int | None, with_html: bool) -> Iterator[Page]:
        for n, record in enumerate(self._records()):
            if limit is not None and n >= limit:
                return
            html = decode_page(read_page_bytes(self._page_path(record))) if with_html else ""
            yield Page(
                id=str(record["id"]),
                html=html,
                url=record.get("url"),
                main_text=record.get("main_text"),
                title=record.get("title"),
                lang=record.get("lang"),
                with_snippets=_snippets(record.get("with")),
                without_snippets=_snippets(record.get("without")),
                extras={k: v for k, v in record.items() if k not in _PAGE_KEYS},
            )

    def count(self) -> int:
        """The number of records in ``truth.jsonl``."""
        return sum(1 for _ in self._records())


class ArticleBenchmarkDataset(Dataset):
    """The article-extraction benchmark layout: ``ground-truth.json`` plus ``html/<id>.html.gz``.

    The truth file (texts only) is read once per pass; pages are read as they are yielded.
    """

    kind = "article-benchmark"

    def _truth(self) -> dict[str, Any]:
        truth = self.path / BENCHMARK_TRUTH_FILE
        try:
            with truth.open(encoding="utf-8") as fh:
                data = json.load(fh)
        except json.JSONDecodeError as exc:
            raise DatasetError(f"{truth}: not JSON: {exc}") from exc
        if not isinstance(data, dict):
            raise DatasetError(f"{truth}: expected an object mapping ids to records")
        return data

    def _page_path(self, pid: str) -> Path:
        for suffix in (".html.gz", ".html"):
            candidate = self.path / "html" / f"{pid}{suffix}"
            if candidate.exists():
                return candidate
        raise DatasetError(f"{self.path}: no html/{pid}.html.gz")

    def iter_pages(self, limit: int | None = None) -> Iterator[Page]:
        """Yield the pages in id order, at most ``limit``."""
        return self._iter(limit, with_html=True)

    def iter_labels(self, limit: int | None = None) -> Iterator[Page]:
        """Like :meth:`iter_pages`, without reading the pages (``html`` is "")."""
        return self._iter(limit, with_html=False)

    def _iter(self, limit: int | None, with_html: bool) -> Iterator[Page]:
        truth = self._truth()
        for n, pid in enumerate(sorted(truth)):
            if limit is not None and n >= limit:
                return
            record = truth[pid] or {}
            html = decode_page(read_page_bytes(self._page_path(pid))) if with_html else ""
            yield Page(
                id=str(pid),
                html=html,
                url=record.get("url"),
                main_text=record.get("articleBody"),
                title=record.get("headline"),
                lang=record.get("inLanguage") or record.get("lang"),
                extras={k: v for k, v in record.items() if k not in ("articleBody", "url")},
            )

    def count(self) -> int:
        """The number of pages in ``ground-truth.json``."""
        return len(self._truth())


def open_dataset(path: str | os.PathLike[str]) -> Dataset:
    """The dataset in a folder (either layout); raises :class:`DatasetError` otherwise."""
    p = Path(path)
    if (p / TRUTH_FILE).is_file():
        return JsonlDataset(p)
    if (p / BENCHMARK_TRUTH_FILE).is_file():
        return ArticleBenchmarkDataset(p)
    raise DatasetError(
        f"{p}: not a dataset (expected {TRUTH_FILE} or {BENCHMARK_TRUTH_FILE} plus html/)"
    )


def find_datasets(paths: Iterable[str | os.PathLike[str]]) -> list[Dataset]:
    """Datasets for the given folders; a folder of dataset folders gives each of them (sorted).

    Raises :class:`DatasetError` for a path that is neither.
    """
    found: list[Dataset] = []
    for path in paths:
        p = Path(path)
        try:
            found.append(open_dataset(p))
            continue
        except DatasetError:
            if not p.is_dir():
                raise DatasetError(f"{p}: no such dataset folder") from None
        children = []
        for sub in sorted(p.iterdir()):
            if sub.is_dir():
                try:
                    children.append(open_dataset(sub))
                except DatasetError:
                    pass
        if not children:
            raise DatasetError(
                f"{p}: not a dataset (no {TRUTH_FILE} or {BENCHMARK_TRUTH_FILE}) "
                "and no dataset folders inside"
            )
        found.extend(children)
    return found
