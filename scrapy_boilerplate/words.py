"""Word counting as boilerpipe does it, plus character counting for CJK and Thai.

boilerpipe splits a block's text into tokens at regex word boundaries, except where one of
``" ' . , ! @ - : ; $ ? ( ) /`` glues the two sides ("U.S.", "e-mail", "don't" stay one
token). A token is a *word* if it holds a letter or a number. Words are then laid out on
80-column lines to get the "text density" (words per wrapped line, the partial last line
left out). This module reproduces that exactly, on Python's regex engine.

Chinese, Japanese and Thai are written without spaces, so boilerpipe sees a whole sentence
as one word. With ``cjk=True`` every character of those scripts is a word of its own; on
the 80-column line it takes two columns (itself and the separator the rule adds), which
is the width a full-width character has on screen.
Text in space-separated languages counts the same either way.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from dataclasses import dataclass
from itertools import accumulate

from ._compiled import use_twin
from ._unicode_tables import JAVA_WORD_ASTRAL, JAVA_WORD_BMP

#: marker tokens the HTML handler puts around anchor text (boilerpipe's own strings)
ANCHOR_START = "$\ue00a<"
ANCHOR_END = ">\ue00a$"

#: boilerpipe's line width for the text-density rule (Kohlschütter et al., WSDM 2010)
LINE_WIDTH = 80

# Java's Character.isWhitespace: ASCII controls 9-13 and 28-31, plus the Unicode space,
# line and paragraph separators except the non-breaking ones (U+00A0, U+2007, U+202F).
JAVA_WHITESPACE = (
    "\t\n\x0b\x0c\r\x1c\x1d\x1e\x1f \u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006"
    "\u2008\u2009\u200a\u2028\u2029\u205f\u3000"
)

# Java's String.trim() removes every character up to U+0020 from both ends.
JAVA_TRIM_CHARS = "".join(chr(i) for i in range(0x21))

# Scripts written without spaces between words: Han, kana, bopomofo, Thai, Lao, Khmer,
# Myanmar (Hangul is written with spaces, so it is not here).
CJK_CHARACTERS = (
    "\u0e00-\u0e7f\u0e80-\u0eff\u1000-\u109f\u1780-\u17ff\u2e80-\u2fdf\u3040-\u30ff"
    "\u3100-\u312f\u31a0-\u31ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff66-\uff9f"
    "\U00020000-\U0003134f"
)

_GLUE = "\"'.,!@\\-:;$?()/"  # characters that suppress a token split next to them
_SEPARATORS = " \u2063"  # a space, or Java's invisible word separator

# W: a Java word character; N: any other character that is neither glue nor a separator.
# A token split falls between a W and an N next to each other (and at separators). Text
# without characters above U+FFFF (nearly all) gets BMP-only classes: constant-time lookups.
_N_BMP = f"[^{JAVA_WORD_BMP}{_GLUE}{_SEPARATORS}\n]"
_N_ANY = f"(?:[^{JAVA_WORD_BMP}{_GLUE}{_SEPARATORS}\n](?<![{JAVA_WORD_ASTRAL}]))"
_SPLIT_AT_OTHER = {
    False: re.compile(f"({_N_BMP}+)").split,
    True: re.compile(f"({_N_ANY}+)").split,
}
# What can stand next to a run of N's: a W, or one of these (then there is no split).
_NOT_WORD_NEIGHBOURS = frozenset(_GLUE.replace("\\", "") + _SEPARATORS + "\n")
_CJK = re.compile(f"[{CJK_CHARACTERS}]")
_IS_WORD = re.compile(r"[^\W_]").search  # holds a letter or a number (L, Nd, Nl, No)
# The space-separated tokens that hold a letter or a number, found in one C pass: a token
# start, its non-word prefix, a word character, the rest. Linear: the look-behind fails at
# once inside a token, so a long run without words is not retried at every position.
_WORD_TOKENS = re.compile(r"(?<![^ ])(?:[^\w ]|_)*[^\W_][^ ]*").findall


_ASTRAL = re.compile("[\U00010000-\U0010ffff]").search


def has_astral_python(text: str) -> bool:
    """Whether the text holds a character above U+FFFF (two UTF-16 units in Java).
    ``has_astral`` is its compiled twin (which asks the string's storage width) when
    ``_cwords`` is built."""
    return not text.isascii() and _ASTRAL(text) is not None


has_astral = has_astral_python


def java_trim(text: str) -> str:
    """Trim like Java's ``String.trim()``: every character up to U+0020, nothing else."""
    return text.strip(JAVA_TRIM_CHARS)


def utf16_len(text: str) -> int:
    """Length in UTF-16 code units, as Java's ``String.length()`` counts."""
    if not has_astral(text):
        return len(text)
    return len(text.encode("utf-16-le")) // 2


def _space_out_other_runs(text: str, astral: bool) -> str:
    """Put a space between every W and N that touch (runs of N's found in one C pass)."""
    parts = _SPLIT_AT_OTHER[astral](text)
    if len(parts) == 1:
        return text
    not_word = _NOT_WORD_NEIGHBOURS
    for i in range(1, len(parts), 2):
        before, after = parts[i - 1], parts[i + 1]
        run = parts[i]
        if before and before[-1] not in not_word:
            run = " " + run
        if after and after[0] not in not_word:
            run += " "
        parts[i] = run
    return "".join(parts)


def separate_tokens_python(text: str, cjk: bool) -> str:
    """Text with a space at every token boundary: what is left between spaces are the
    tokens (and anchor markers), in order. ``_cwords.pyx`` has its compiled twin;
    ``separate_tokens`` is whichever is available."""
    if text.isascii():
        astral = False
    else:
        if cjk and _CJK.search(text) is not None:
            text = _CJK.sub(r" \g<0> ", text)  # each CJK character is a token of its own
        astral = _ASTRAL(text) is not None
    text = _space_out_other_runs(text, astral)
    if "\u2063" in text:
        text = text.replace("\u2063", " ")
    return text


def _tokens(text: str, cjk: bool) -> list[str]:
    return [t for t in separate_tokens(text, cjk).split(" ") if t]


def tokenize(text: str, cjk: bool = False) -> list[str]:
    """Split text into boilerpipe tokens (anchor markers are not expected here)."""
    return _tokens(java_trim(text), cjk)


def is_word(token: str) -> bool:
    """True if the token holds a letter or a number, boilerpipe's definition of a word."""
    return _IS_WORD(token) is not None


@dataclass(frozen=True, slots=True)
class WordStats:
    """The statistics boilerpipe keeps per text block.

    ``has_tokens`` is False when the text held nothing but anchor markers and spaces:
    boilerpipe then makes no block (and keeps its buffers for the next one).
    """

    num_words: int
    num_words_in_anchor_text: int
    num_words_in_wrapped_lines: int
    num_wrapped_lines: int
    has_tokens: bool


_FITS_ONE_LINE = LINE_WIDTH + 1
_NO_WORDS = (0, 0, 0, 1)


def _stats(
    separated: str, in_anchor: bool, astral: bool = True
) -> tuple[tuple[int, int, int, int], bool]:
    """(words, linked words, words in wrapped lines, wrapped lines) of one block."""
    if "\ue00a" not in separated:
        words = _WORD_TOKENS(separated)
        linked = len(words) if in_anchor else 0
    else:
        # Anchor markers are tokens of their own: a piece after a start marker is linked
        # up to the next end marker.
        words = []
        linked = 0
        for i, piece in enumerate(separated.split(ANCHOR_START)):
            if i:
                in_anchor = True
            for j, part in enumerate(piece.split(ANCHOR_END)):
                if j:
                    in_anchor = False
                found = _WORD_TOKENS(part)
                if found:
                    words += found
                    if in_anchor:
                        linked += len(found)
    n = len(words)
    if n == 0:
        return (0, 0, 0, 1), in_anchor
    astral = astral and has_astral(separated)
    if len(separated) < _FITS_ONE_LINE and not astral:
        return (n, linked, n, 1), in_anchor  # words and spaces fit one line
    lengths = list(map(utf16_len if astral else len, words))
    if sum(lengths) + n <= _FITS_ONE_LINE:
        return (n, linked, n, 1), in_anchor
    wraps, last_line_start = wrap_lines(lengths)
    if wraps == 0:
        return (n, linked, n, 1), in_anchor
    # the words before the last (partial) line are the words "in wrapped lines"
    return (n, linked, last_line_start, wraps), in_anchor


def has_tokens(token_text: str) -> bool:
    """False if the token buffer holds nothing but anchor markers and separators (then
    boilerpipe makes no block). An empty or blank buffer is one empty token: True."""
    trimmed = java_trim(token_text)
    if not trimmed or "\ue00a" not in trimmed:
        return True
    rest = trimmed.replace(ANCHOR_START, "").replace(ANCHOR_END, "")
    return bool(rest.strip(_SEPARATORS))


def count_words_batch(token_texts: list[str], cjk: bool) -> list[tuple[int, int, int, int]]:
    """Statistics of consecutive blocks, from their token buffers (trimmed, with markers).

    The anchor state starts outside any anchor and carries from block to block. All texts
    are tokenized in one pass over their concatenation (blocks hold no newlines).
    """
    if not token_texts:
        return []
    joined = separate_tokens("\n".join(token_texts), cjk)
    return count_blocks(joined, has_astral(joined))


def count_blocks_python(joined: str, astral: bool) -> list[tuple[int, int, int, int]]:
    """The statistics of each newline-separated block of separated token text (``astral``:
    whether it holds characters above U+FFFF). ``_cwords.pyx`` is its compiled twin;
    ``count_blocks`` is whichever is available."""
    out: list[tuple[int, int, int, int]] = []
    append = out.append
    word_tokens = _WORD_TOKENS
    in_anchor = False
    for text in joined.split("\n"):
        if len(text) < _FITS_ONE_LINE and not astral and "\ue00a" not in text:
            # the common case inlined: a short block without anchor markers
            n = len(word_tokens(text))
            append((n, n if in_anchor else 0, n, 1) if n else _NO_WORDS)
            continue
        stats, in_anchor = _stats(text, in_anchor, astral)
        append(stats)
    return out


count_blocks = count_blocks_python
separate_tokens = separate_tokens_python
#: whether the compiled separator and block counter (``_cwords``) are in use
COMPILED = use_twin(globals(), "count_blocks", "separate_tokens", "has_astral")


def count_words(token_text: str, in_anchor: bool, cjk: bool) -> tuple[WordStats, bool]:
    """Count the words of one block's token buffer (text with anchor markers).

    Returns the statistics and the anchor state after the block: boilerpipe never resets
    that state between blocks, so an anchor that spans a block boundary keeps counting.
    """
    stats, in_anchor = _stats(separate_tokens(java_trim(token_text), cjk), in_anchor)
    if not has_tokens(token_text):  # no block, but its markers still move the anchor state
        return WordStats(0, 0, 0, 0, False), in_anchor
    return WordStats(*stats, True), in_anchor


def wrap_lines(lengths: list[int]) -> tuple[int, int]:
    """Lay words out greedily on 80-column lines, as boilerpipe does.

    boilerpipe adds each word's length plus one to the line length (starting from -1) and
    starts a new line, counted as a wrap, when that exceeds 80. Returns the number of
    wraps and the index of the first word on the last line (0 if nothing wrapped). Found
    with bisection on prefix sums: one step per line, not per word.
    """
    ends = list(accumulate(map((1).__add__, lengths), initial=0))  # columns of words < k
    n = len(lengths)
    limit = LINE_WIDTH + 1
    if ends[-1] <= limit:
        return 0, 0
    j = bisect_right(ends, limit, 1) - 1  # first word whose addition overflows line 1
    wraps = 0
    start = j
    while j < n:
        wraps += 1
        start = j
        j = bisect_right(ends, ends[start] + limit, start + 2) - 1
    return wraps, start
