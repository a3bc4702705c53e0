"""Web2Text's compiled text statistics (``neural/_ctextstats.pyx``) give what
``textstats.char_counts_python`` and ``textstats.stopword_words_python`` give."""

import random

import numpy as np

from scrapy_boilerplate import parse
from scrapy_boilerplate.neural import textstats
from scrapy_boilerplate.parse import build_tree

from .helpers import compiled, golden_pages


def _counts_agree(texts) -> bool:
    joined = " ".join(texts)
    lengths = np.array([len(t) for t in texts], dtype=np.int64)
    starts = np.concatenate(([0], np.cumsum(lengths + 1)[:-1])).astype(np.int64)
    table = textstats._char_table()
    expected = textstats.char_counts_python(joined, starts, lengths, table)
    got = textstats.char_counts(joined, starts, lengths, table)
    expected_stops = textstats.stopword_words_python(texts, joined, starts)
    got_stops = textstats.stopword_words(texts, joined, starts)
    return (
        got.dtype == expected.dtype
        and (got == expected).all()
        and got_stops.dtype == expected_stops.dtype
        and (got_stops == expected_stops).all()
    )


@compiled
def test_both_character_and_stopword_counts_agree_on_every_golden_and_crafted_page():
    differing = []
    for name, html in golden_pages():
        root, _ = build_tree(html)
        blocks, _ = parse.segment(root)
        if blocks and not _counts_agree([b.text for b in blocks]):
            differing.append(name)
    assert differing == []


@compiled
def test_both_character_and_stopword_counts_agree_on_random_texts():
    # sentence ends across block borders, years at the edges, CJK stops, astral letters,
    # characters above the table, copyright signs, empty blocks, lone surrogates, stopwords
    # in upper and mixed case, the Kelvin sign (whose lower case is ASCII "k")
    pieces = ["Word", "word", " ", ". ", "? ", "!", ";", "A", "1999", "2024", "12345", "1850",
              "The", " and ", "(of)", "\u201cder\u201d", "F\u00fcr", "\u0130n", "\u00a0the\u2003",
              "\u00ab", "--", "yourselves", "ourselves,", "\u03a3", " \u0399\u03a3 ",
              "\u3002", "\uff01", "\u4e2d\u6587", "\u0e44\u0e17\u0e22", "\u00a9", "_",
              "\U0001d400", "\U00030000", "\U00020001", "\ud800", "\u00c9t\u00e9", "\n",
              "\u0301", "x", "?", "\uff1f", "e-mail", "", "THE", "\u212a", "oF"]  # fmt: skip
    rnd = random.Random(3)
    for _ in range(3000):
        texts = [
            "".join(rnd.choice(pieces) for _ in range(rnd.randint(0, 12)))
            for _ in range(rnd.randint(1, 6))
        ]
        assert _counts_agree(texts), texts
