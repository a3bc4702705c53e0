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

from ._unicode_tables import JAVA_WORD_ASTRAL, JAVA_WORD_BMP

#: marker tokens the HTML handler puts around anchor text (boilerpipe's own strings)
ANCHOR_START = "$\ue00a<"
ANCHOR_END = ">\ue00a$"

#: boilerpipe's line width for the text-density rule (Kohlschütter et al., WSDM 2010)
LINE_WIDTH = 80

# Java's Character.isWhitespace: ASCII controls 9-13 and 28-31, plus the Unicode space,
# line and paragraph separators except the non-breaking ones (U+00A0, U+2007, U+202F).
_JAVA_WHITESPACE = (
    "\t\n\x0b\x0c\r\x1c\x1d\x1e\x1f \u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006"
    "\u2008\u2009\u200a\u2028\u2029\u205f\u3000"
)
JAVA_WHITESPACE_TO_SPACE = str.maketrans({c: " " for c in _JAVA_WHITESPACE})

# Java's String.trim() removes every character up to U+0020 from both ends.
_JAVA_TRIM_CHARS = "".join(chr(i) for i in range(0x21))

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
_W_BMP = f"[{JAVA_WORD_BMP}]"
_N_BMP = f"[^{JAVA_WORD_BMP}{_GLUE}{_SEPARATORS}]"
_W_ANY = f"(?:[{JAVA_WORD_BMP}]|[{JAVA_WORD_ASTRAL}])"
_N_ANY = f"(?:[^{JAVA_WORD_BMP}{_GLUE}{_SEPARATORS}](?<![{JAVA_WORD_ASTRAL}]))"
_SPLIT_AFTER = {
    astral: re.compile(f"{w}(?={n})|{n}(?={w})")
    for astral, (w, n) in ((False, (_W_BMP, _N_BMP)), (True, (_W_ANY, _N_ANY)))
}
_HAS_OTHER = {False: re.compile(_N_BMP).search, True: re.compile(_N_ANY).search}
_CJK = re.compile(f"[{CJK_CHARACTERS}]")
_IS_WORD = re.compile(r"[^\W_]").search  # holds a letter or a number (L, Nd, Nl, No)
_MARKER_SPLIT = re.compile(f"({re.escape(ANCHOR_START)}|{re.escape(ANCHOR_END)})").split


def java_trim(text: str) -> str:
    """Trim like Java's ``String.trim()``: every character up to U+0020, nothing else."""
    return text.strip(_JAVA_TRIM_CHARS)


def utf16_len(text: str) -> int:
    """Length in UTF-16 code units, as Java's ``String.length()`` counts."""
    if text.isascii() or max(text) <= "\uffff":
        return len(text)
    return len(text.encode("utf-16-le")) // 2


def _tokens(text: str, cjk: bool) -> list[str]:
    if cjk:
        text = _CJK.sub(r" \g<0> ", text)  # each CJK character is a token of its own
    astral = bool(text) and max(text) > "\uffff"
    if _HAS_OTHER[astral](text) is not None:
        text = _SPLIT_AFTER[astral].sub(r"\g<0> ", text)
    if "\u2063" in text:
        text = text.replace("\u2063", " ")
    return [t for t in text.split(" ") if t]


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


# A token of no letter or number (punctuation, symbols, "_"), with the spaces around it.
_NON_WORD_TOKEN = re.compile(r"(?<![^ ])(?:[^\w ]|_)+(?![^ ])")


def _word_lengths(text: str, cjk: bool, astral: bool) -> list[int]:
    """Lengths of the word tokens of marker-free text, in order (UTF-16 units if astral)."""
    if cjk and _CJK.search(text) is not None:
        text = _CJK.sub(r" \g<0> ", text)
    if _HAS_OTHER[astral](text) is not None:
        text = _SPLIT_AFTER[astral].sub(r"\g<0> ", text)
    if "\u2063" in text:
        text = text.replace("\u2063", " ")
    text = _NON_WORD_TOKEN.sub("", text)
    return list(map(utf16_len if astral else len, filter(None, text.split(" "))))


def count_words(token_text: str, in_anchor: bool, cjk: bool) -> tuple[WordStats, bool]:
    """Count the words of a block's token buffer (text with anchor markers).

    Returns the statistics and the anchor state after the block: boilerpipe never resets
    that state between blocks, so an anchor that spans a block boundary keeps counting.
    """
    trimmed = java_trim(token_text)
    if not trimmed:
        # Java splits "" into one empty token: a block of no words, but a block.
        return WordStats(0, 0, 0, 1, True), in_anchor
    astral = not trimmed.isascii() and max(trimmed) > "\uffff"
    if "\ue00a" not in trimmed:  # no anchor markers: one stretch of text
        lengths = _word_lengths(trimmed, cjk, astral)
        num_linked = len(lengths) if in_anchor else 0
        has_tokens = True
    else:
        has_tokens = False
        num_linked = 0
        lengths = []
        for i, part in enumerate(_MARKER_SPLIT(trimmed)):
            if i % 2:
                in_anchor = part == ANCHOR_START
                continue
            if not part.strip(_SEPARATORS):
                continue
            has_tokens = True
            words = _word_lengths(part, cjk, astral)
            if in_anchor:
                num_linked += len(words)
            lengths += words
        if not has_tokens:
            return WordStats(0, 0, 0, 0, False), in_anchor
    num_words = len(lengths)
    wraps, last_line_start = wrap_lines(lengths)
    if wraps == 0:
        return WordStats(num_words, num_linked, num_words, 1, has_tokens), in_anchor
    # the words before the last (partial) line are the words "in wrapped lines"
    return WordStats(num_words, num_linked, last_line_start, wraps, has_tokens), in_anchor


def wrap_lines(lengths: list[int]) -> tuple[int, int]:
    """Lay words out greedily on 80-column lines, as boilerpipe does.

    boilerpipe adds each word's length plus one to the line length (starting from -1) and
    starts a new line, counted as a wrap, when that exceeds 80. Returns the number of
    wraps and the index of the first word on the last line (0 if nothing wrapped). Found
    with bisection on prefix sums: one step per line, not per word.
    """
    ends = [0, *accumulate(n + 1 for n in lengths)]  # ends[k]: columns of words < k, +1 each
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
