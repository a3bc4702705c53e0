"""Word counting: boilerpipe's tokens, words, link words and 80-column text density."""

import random

import pytest

from scrapy_boilerplate.words import (
    ANCHOR_END,
    ANCHOR_START,
    count_words,
    is_word,
    java_trim,
    tokenize,
    utf16_len,
    wrap_lines,
)


@pytest.mark.parametrize(
    "text, tokens",
    [
        # glue characters keep their neighbours together
        ("U.S. e-mail don't word,", ["U.S.", "e-mail", "don't", "word,"]),
        ("(parens) $5.00 a/b", ["(parens)", "$5.00", "a/b"]),
        # other symbols split words and stand alone
        ("x&y a|b", ["x", "&", "y", "a", "|", "b"]),
        ("it\u2019s \u201ccurly\u201d", ["it", "\u2019", "s", "\u201c", "curly", "\u201d"]),
        # a non-breaking space is not whitespace for Java, but it is no word character
        ("foo\u00a0bar", ["foo", "\u00a0", "bar"]),
        # Java's word boundary leaves superscripts and fractions out of words
        ("x\u00b2 \u00bd", ["x", "\u00b2", "\u00bd"]),
        # a run of Han characters is one token in Java's counting
        ("\u4e2d\u6587\u5b57 \u548c\u3002", ["\u4e2d\u6587\u5b57", "\u548c", "\u3002"]),
        ("emoji\U0001f600x", ["emoji", "\U0001f600", "x"]),
        ("a\u2063b", ["a", "b"]),  # Java's invisible separator separates
    ],
)
def test_tokens_follow_javas_word_boundaries(text, tokens):
    assert tokenize(text) == tokens


def test_cjk_mode_makes_every_cjk_character_a_token():
    assert tokenize("\u4e2d\u6587 abc", cjk=True) == ["\u4e2d", "\u6587", "abc"]
    assert tokenize("\u0e20\u0e32\u0e29\u0e32", cjk=True) == [
        "\u0e20",
        "\u0e32",
        "\u0e29",
        "\u0e32",
    ]


@pytest.mark.parametrize(
    "token, expected",
    [
        ("word", True),
        ("42", True),
        ("\u00b2", True),
        ("--", False),
        ("_", False),
        ("\u2019", False),
    ],
)
def test_a_word_holds_a_letter_or_a_number(token, expected):
    assert is_word(token) is expected


def test_java_trim_removes_control_characters_but_not_unicode_spaces():
    assert java_trim("\x01 a \t") == "a"
    assert java_trim("\u00a0a\u3000") == "\u00a0a\u3000"


def test_utf16_length_counts_astral_characters_twice():
    assert utf16_len("a\U0001f600") == 3
    assert utf16_len("abc") == 3


def text_density(stats):
    return stats.num_words_in_wrapped_lines / stats.num_wrapped_lines


@pytest.mark.parametrize("count", [17, 30, 50])
def test_text_density_of_long_text_is_words_per_full_line(count):
    # 16 four-letter words fill a line (16 * 5 - 1 = 79 columns); the partial last line
    # is left out, so the density stays 16 however long the text
    stats, _ = count_words(" ".join(["abcd"] * count), False, False)
    assert stats.num_words == count
    assert text_density(stats) == 16


def test_a_text_that_fits_one_line_has_its_word_count_as_density():
    stats, _ = count_words(" ".join(["abcd"] * 16), False, False)
    assert (stats.num_wrapped_lines, text_density(stats)) == (1, 16)


def test_anchor_markers_count_linked_words_and_their_state_carries_over():
    text = f"read {ANCHOR_START} the full story {ANCHOR_END} here {ANCHOR_START} more"
    stats, in_anchor = count_words(text, False, False)
    assert (stats.num_words, stats.num_words_in_anchor_text) == (6, 4)
    assert in_anchor is True  # the last anchor is still open at the block's end
    stats, in_anchor = count_words("continued words", in_anchor, False)
    assert stats.num_words_in_anchor_text == 2


def test_a_buffer_of_only_markers_has_no_tokens():
    stats, in_anchor = count_words(f" {ANCHOR_START} {ANCHOR_END} ", False, False)
    assert stats.has_tokens is False and in_anchor is False


def test_control_characters_alone_still_make_a_block_of_no_words():
    stats, _ = count_words("\x01", False, False)
    assert stats.has_tokens is True and stats.num_words == 0


def _wrap_reference(lengths):
    # boilerpipe's loop, word by word
    line, wraps, on_line = -1, 0, 0
    for n in lengths:
        on_line += 1
        line += n + 1
        if line > 80:
            wraps += 1
            line = n
            on_line = 1
    return (wraps, len(lengths) - on_line) if wraps else (0, 0)


def test_line_wrapping_by_bisection_equals_the_word_by_word_loop():
    rng = random.Random(7)
    for _ in range(3000):
        lengths = [
            rng.choice([1, 2, 40, 79, 80, 81, 90]) if rng.random() < 0.2 else rng.randint(1, 12)
            for _ in range(rng.randint(0, 60))
        ]
        assert wrap_lines(lengths) == _wrap_reference(lengths), lengths


def test_cjk_counting_changes_nothing_for_space_separated_text():
    text = "The quick brown fox, it\u2019s said, jumps over the lazy dog \u2014 twice."
    assert count_words(text, False, True) == count_words(text, False, False)


def test_cjk_counting_counts_characters():
    stats, _ = count_words("\u4e2d\u6587\u7684\u6587\u672c", False, True)
    assert stats.num_words == 5
    stats, _ = count_words("\u4e2d\u6587\u7684\u6587\u672c", False, False)
    assert stats.num_words == 1
