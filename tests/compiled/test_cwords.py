"""The compiled token separation and word statistics (``_cwords.pyx``) give what
``words.separate_tokens_python`` and ``words.count_blocks_python`` give."""

import random

import pytest

from scrapy_boilerplate import parse, words
from scrapy_boilerplate.parse import build_tree

from .helpers import compiled, golden_pages, signature


@compiled
@pytest.mark.parametrize("cjk", [True, False], ids=["cjk", "java"])
def test_both_word_counters_agree_on_every_golden_and_crafted_page(cjk, monkeypatch):
    differing = []
    for name, html in golden_pages():
        root, _ = build_tree(html)
        compiled_result = parse.segment(root, cjk)
        with monkeypatch.context() as patch:
            patch.setattr(words, "count_blocks", words.count_blocks_python)
            python_result = parse.segment(root, cjk)
        if signature(compiled_result) != signature(python_result):
            differing.append(name)
    assert differing == []


@compiled
def test_both_word_counters_agree_on_random_texts():
    # links, astral characters, CJK, long lines that wrap, marker look-alikes, empty blocks
    pieces = ["a", "Z9", "_", "-", ".", " ", " ", "\u4e2d", "\u2063", words.ANCHOR_START,
              words.ANCHOR_END, "\U0001f600", "\U00010400", "é", "ab" * 50, "word " * 30,
              "\ue00a", "$", ">"]  # fmt: skip
    rnd = random.Random(7)
    for _ in range(3000):
        texts = [
            "".join(rnd.choice(pieces) for _ in range(rnd.randint(0, 80))).strip()
            for _ in range(rnd.randint(1, 5))
        ]
        for cjk in (True, False):
            joined = words.separate_tokens_python("\n".join(texts), cjk)
            astral = words.has_astral(joined)
            expected = words.count_blocks_python(joined, astral)
            assert words.count_blocks(joined, astral) == expected, texts


@compiled
def test_both_token_separators_agree_on_random_texts():
    # word characters, glue, separators, CJK and Thai (letters and signs), combining marks,
    # astral letters, digits and symbols, anchor markers, newlines, controls
    pieces = ["a", "Z9", "_", "-", ".", " ", "\u4e2d", "\u2063", words.ANCHOR_START,
              words.ANCHOR_END, "\U0001f600", "\U00010400", "é", "word ", "\ue00a", "$", ">",
              "\n", "\u2014", "\u0e44\u0e17\u0e22", "\u0e3f", "\u30fb", "\U00020001",
              "\U0001d7ce", "\u0301", "\u00bd", "\u0663", "\t", "\u00a0", "'", "(",
              "\u201c"]  # fmt: skip
    rnd = random.Random(11)
    for _ in range(20000):
        text = "".join(rnd.choice(pieces) for _ in range(rnd.randint(0, 30)))
        for cjk in (True, False):
            separated = words.separate_tokens(text, cjk)
            assert separated == words.separate_tokens_python(text, cjk), (text, cjk)


@compiled
def test_both_token_separators_agree_on_every_character():
    # every BMP character and a sample of the others, between words, glue and CJK
    rnd = random.Random(5)
    codes = [c for c in range(0x10000) if not 0xD800 <= c < 0xE000]
    codes += rnd.sample(range(0x10000, 0x110000), 5000)
    for code in codes:
        char = chr(code)
        for text in ("a" + char + "b", "-" + char + char + "-", char + "\u4e2d"):
            for cjk in (True, False):
                separated = words.separate_tokens(text, cjk)
                assert separated == words.separate_tokens_python(text, cjk), (hex(code), cjk)


@compiled
def test_the_compiled_separator_returns_an_unchanged_text_as_it_is():
    text = "nothing to separate here, U.S. e-mail"
    assert words.separate_tokens(text, True) is text
    assert words.separate_tokens("a\u2063b", False) == "a b"


@compiled
def test_both_astral_tests_agree_on_every_width_of_string():
    # the compiled test reads the storage width: 1, 2 and 4 bytes per character, and the
    # edges of the 2-byte range (U+FFFF is not astral, U+10000 is)
    texts = ["", "ascii", "é", "\u4e2d文", "\uffff", "\U00010000", "a\U0001f600b", "\u00ff" * 3,
             "x" * 1000 + "\U0010ffff", "\ud800"]  # fmt: skip
    for text in texts:
        assert words.has_astral(text) is words.has_astral_python(text), repr(text)
