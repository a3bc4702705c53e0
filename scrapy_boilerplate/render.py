"""Labelled Document to outputs: plain text and a JSON view of every block.

Plain text puts each paragraph on its own, separated by a blank line. A merged block holds
its original blocks joined by newlines, so those are paragraphs too; runs of whitespace
inside a paragraph (non-breaking spaces included) become one space. The text is the page's
as shown (no space at a link's edge where the page has none); boilerpipe's extractors
render boilerpipe's own text, which has one there.
"""

from __future__ import annotations

from typing import Any

from .document import Document, TextBlock

__all__ = ["render_json", "render_text", "paragraphs"]


def paragraphs(blocks: list[TextBlock], java_text: bool = False) -> list[str]:
    """The non-empty paragraphs of the content blocks, whitespace collapsed: their text as
    the page shows it (``TextBlock.shown_text``), or with ``java_text`` as boilerpipe's
    text has it (a space at both edges of every link)."""
    out: list[str] = []
    for block in blocks:
        if not block.is_content:
            continue
        for line in (block.text if java_text else block.shown_text).split("\n"):
            line = " ".join(line.split())
            if line:
                out.append(line)
    return out


def render_text(doc: Document, java_text: bool = False) -> str:
    """The main content as plain text: paragraphs separated by a blank line ("" if none);
    ``java_text``: boilerpipe's spacing at links' edges (see :func:`paragraphs`)."""
    return "\n\n".join(paragraphs(doc.blocks, java_text))


def block_view(block: TextBlock) -> dict[str, Any]:
    """One block as plain data: text, content flag, labels, statistics, deciding filter."""
    return {
        "text": block.text,
        "is_content": block.is_content,
        "labels": sorted(block.labels),
        "decided_by": block.decided_by,
        **block.stats(),
    }


def render_json(doc: Document) -> dict[str, Any]:
    """Every block with its text, statistics and labels (for debugging a wrong page)."""
    return {
        "url": doc.url,
        "title": doc.title,
        "warnings": list(doc.warnings),
        "blocks": [block_view(b) for b in doc.blocks],
    }
