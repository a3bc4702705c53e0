"""Rewrite one generated section of a Markdown file, leaving the others: several
benchmarks write into one page (``docs/speed.md``)."""

from __future__ import annotations

from pathlib import Path


def update_section(path: str | Path, name: str, body: str) -> str:
    """Put ``body`` between ``<!-- begin NAME -->`` and ``<!-- end NAME -->`` in the file
    (appended when the markers are absent); return the file's new text."""
    path = Path(path)
    begin, end = f"<!-- begin {name} -->", f"<!-- end {name} -->"
    block = f"{begin}\n{body.rstrip()}\n{end}"
    text = path.read_text(encoding="utf-8") if path.exists() else ""
    if begin in text and end in text:
        head, rest = text.split(begin, 1)
        text = head + block + rest.split(end, 1)[1]
    else:
        text = (text.rstrip() + "\n\n" if text.strip() else "") + block + "\n"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return text
