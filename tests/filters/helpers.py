"""Hand-made blocks and documents for the boilerpipe filters' tests (classifiers, fusion,
selection, simple)."""

from scrapy_boilerplate import Document, TextBlock


def block(words=10, linked=0, density=None, text=None, level=3, labels=(), content=False):
    """A block of ``words`` words; ``density`` words per line (default: one line)."""
    if density is None:
        wrapped_words, lines = words, 1
    else:  # lines of ``density`` words plus a partial one
        lines = max(1, words // density)
        wrapped_words = density * lines
    b = TextBlock(
        text if text is not None else " ".join(["w"] * words),
        words,
        linked,
        wrapped_words,
        lines,
        tag_level=level,
        labels=labels,
        is_content=content,
    )
    return b


def doc(*blocks, title=None):
    for i, b in enumerate(blocks):
        b.offset_start = b.offset_end = i
    return Document(blocks=list(blocks), title=title)


def flags(d):
    return [b.is_content for b in d.blocks]
