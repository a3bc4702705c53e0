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

from ._unicode_tables import NONSPACING_MARKS, NUMBER_OTHER_OR_LETTER

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


def _token_pattern(cjk: bool) -> re.Pattern[str]:
    # W: Java word characters (letters, decimal digits, "_", non-spacing marks).
    # N: any other character that is neither a separator nor glue.
    # A token is a run of W's or of N's, joined to further runs only through glue.
    excluded = NUMBER_OTHER_OR_LETTER + (CJK_CHARACTERS if cjk else "")
    word = f"(?:[^\\W{excluded}]|[{NONSPACING_MARKS}])"
    other = f"(?:(?![{_SEPARATORS}{_GLUE}{NONSPACING_MARKS}])[\\W{NUMBER_OTHER_OR_LETTER}])"
    glue = f"[{_GLUE}]"
    run = f"(?:{word}+|{other}+)"
    token = f"(?=[^{_SEPARATORS}]){glue}*(?:{run}{glue}+)*{run}?"
    if cjk:
        token = f"[{CJK_CHARACTERS}]|{token}"
    return re.compile(token)


_TOKEN = {False: _token_pattern(False), True: _token_pattern(True)}
# Text needs the full tokenizer only if it holds characters other than word characters,
# glue and spaces (for CJK counting, also CJK characters).
_NEEDS_REGEX = {
    cjk: re.compile(
        f"[^\\w{_GLUE} ]|[{NUMBER_OTHER_OR_LETTER}{CJK_CHARACTERS if cjk else ''}]"
    ).search
    for cjk in (False, True)
}
_GLUE_AND_UNDERSCORE = "\"'.,!@-:;$?()/_"
_IS_WORD = re.compile(r"[^\W_]").search  # holds a letter or a number (L, Nd, Nl, No)
_MARKER_SPLIT = re.compile(f"({re.escape(ANCHOR_START)}|{re.escape(ANCHOR_END)})").split


def java_trim(text: str) -> str:
    """Trim like Java's ``String.trim()``: every character up to U+0020, nothing else."""
    return text.strip(_JAVA_TRIM_CHARS)


def utf16_len(text: str) -> int:
    """Length in UTF-16 code units, as Java's ``String.length()`` counts."""
    if text and max(text) > "\uffff":
        return len(text.encode("utf-16-le")) // 2
    return len(text)


def tokenize(text: str, cjk: bool = False) -> list[str]:
    """Split text into boilerpipe tokens (anchor markers are not expected here)."""
    return _TOKEN[cjk].findall(java_trim(text))


def is_word(token: str) -> bool:
    """True if the token holds a letter or a number, boilerpipe's definition of a word."""
    return _IS_WORD(token) is not None


@dataclass(frozen=True, slots=True)
class WordStats:
    """The statistics boilerpipe keeps per text block."""

    num_words: int
    num_words_in_anchor_text: int
    num_words_in_wrapped_lines: int
    num_wrapped_lines: int
    num_tokens: int


def count_words(token_text: str, in_anchor: bool, cjk: bool) -> tuple[WordStats, bool]:
    """Count the words of a block's token buffer (text with anchor markers).

    Returns the statistics and the anchor state after the block: boilerpipe never resets
    that state between blocks, so an anchor that spans a block boundary keeps counting.
    """
    trimmed = java_trim(token_text)
    if not trimmed:
        # Java splits "" into one empty token: a block of no words, but a block.
        return WordStats(0, 0, 0, 1, 1), in_anchor
    find_tokens = _TOKEN[cjk].findall
    needs_regex = _NEEDS_REGEX[cjk]
    astral = max(trimmed) > "\uffff"
    num_tokens = num_linked = 0
    lengths: list[int] = []
    for i, part in enumerate(_MARKER_SPLIT(trimmed)):
        if i % 2:
            in_anchor = part == ANCHOR_START
            continue
        if not part:
            continue
        if needs_regex(part) is None:
            # Only word characters, glue and spaces: tokens are the space-separated
            # chunks, words those with more than glue and "_" in them.
            tokens = part.split()
            words = [t for t in tokens if t.strip(_GLUE_AND_UNDERSCORE)]
        else:
            tokens = find_tokens(part)
            words = [t for t in tokens if _IS_WORD(t)]
        num_tokens += len(tokens)
        if words:
            if in_anchor:
                num_linked += len(words)
            lengths.extend(map(utf16_len if astral else len, words))
    if num_tokens == 0:
        return WordStats(0, 0, 0, 0, 0), in_anchor
    num_words = len(lengths)
    wraps, last_line_start = wrap_lines(lengths)
    if wraps == 0:
        return WordStats(num_words, num_linked, num_words, 1, num_tokens), in_anchor
    # the words before the last (partial) line are the words "in wrapped lines"
    return WordStats(num_words, num_linked, last_line_start, wraps, num_tokens), in_anchor


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
