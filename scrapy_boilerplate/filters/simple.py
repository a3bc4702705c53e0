"""Simple filters: mark everything, invert, labels to flags, copying labels forward."""

from __future__ import annotations

from collections.abc import Iterable

from ..document import Document, Label
from .base import Filter

__all__ = [
    "AddPrecedingLabelsFilter",
    "InvertedFilter",
    "LabelToBoilerplateFilter",
    "LabelToContentFilter",
    "MarkEverythingBoilerplateFilter",
    "MarkEverythingContentFilter",
]


class MarkEverythingContentFilter(Filter):
    """Every block becomes content."""

    name = "mark_everything_content"

    def __call__(self, doc: Document) -> bool:
        changed = False
        for block in doc.blocks:
            if not block.is_content:
                block.is_content = True
                changed = True
        return changed


class MarkEverythingBoilerplateFilter(Filter):
    """Every block becomes boilerplate."""

    name = "mark_everything_boilerplate"

    def __call__(self, doc: Document) -> bool:
        changed = False
        for block in doc.blocks:
            if block.is_content:
                block.is_content = False
                changed = True
        return changed


class InvertedFilter(Filter):
    """Swaps content and boilerplate on every block."""

    name = "inverted"

    def __call__(self, doc: Document) -> bool:
        for block in doc.blocks:
            block.is_content = not block.is_content
        return bool(doc.blocks)


def _labels(labels: str | Iterable[str]) -> tuple[str, ...]:
    return (labels,) if isinstance(labels, str) else tuple(labels)


class LabelToContentFilter(Filter):
    """Boilerplate blocks carrying any of ``labels`` become content."""

    name = "label_to_content"

    def __init__(self, labels: str | Iterable[str] = ()) -> None:
        self.labels = _labels(labels)

    def __call__(self, doc: Document) -> bool:
        changed = False
        for block in doc.blocks:
            if not block.is_content and any(label in block.labels for label in self.labels):
                block.is_content = True
                changed = True
        return changed


class LabelToBoilerplateFilter(Filter):
    """Content blocks carrying any of ``labels`` become boilerplate (by default the
    STRICTLY_NOT_CONTENT label, boilerpipe's ``INSTANCE_STRICTLY_NOT_CONTENT``)."""

    name = "label_to_boilerplate"

    def __init__(self, labels: str | Iterable[str] = (Label.STRICTLY_NOT_CONTENT,)) -> None:
        self.labels = _labels(labels)

    def __call__(self, doc: Document) -> bool:
        changed = False
        for block in doc.blocks:
            if block.is_content and any(label in block.labels for label in self.labels):
                block.is_content = False
                changed = True
        return changed


class AddPrecedingLabelsFilter(Filter):
    """Each block also gets its predecessor's labels, prefixed with ``label_prefix``.

    As in boilerpipe, the second block never receives the first block's labels (its
    backward loop stops one pair early).
    """

    name = "add_preceding_labels"

    def __init__(self, label_prefix: str = "") -> None:
        self.label_prefix = label_prefix

    def __call__(self, doc: Document) -> bool:
        blocks = doc.blocks
        changed = False
        prefix = self.label_prefix
        # pairs (n-2 -> n-1) down to (1 -> 2); block 0's labels go nowhere
        for i in range(len(blocks) - 2, 0, -1):
            labels = blocks[i].labels
            if labels:
                blocks[i + 1].labels.update(prefix + label for label in list(labels))
                changed = True
        return changed
