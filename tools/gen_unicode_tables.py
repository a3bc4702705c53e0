"""Writes scrapy_boilerplate/_unicode_tables.py. Run from the repository root:

python tools/gen_unicode_tables.py
"""

import unicodedata

# Java's regex word boundary (\b) counts letters, decimal digits, "_" and non-spacing marks
# (after a base character) as word characters.
JAVA_WORD_CATEGORIES = {"Lu", "Ll", "Lt", "Lm", "Lo", "Nd", "Mn"}


def ranges(pred, lo, hi):
    out, start = [], None
    for cp in range(lo, hi):
        ok = not 0xD800 <= cp <= 0xDFFF and pred(chr(cp))
        if ok and start is None:
            start = cp
        if not ok and start is not None:
            out.append((start, cp - 1))
            start = None
    if start is not None:
        out.append((start, hi - 1))
    return out


def fmt(rs):
    def esc(cp):
        return f"\\U{cp:08x}" if cp > 0xFFFF else f"\\u{cp:04x}"

    parts = [esc(a) if a == b else f"{esc(a)}-{esc(b)}" for a, b in rs]
    lines, line = [], ""
    for p in parts:
        if len(line) + len(p) > 84:
            lines.append(line)
            line = ""
        line += p
    lines.append(line)
    return "(\n" + "\n".join(f'    "{x}"' for x in lines) + "\n)"


def is_letter(c):
    return unicodedata.category(c) in {"Lu", "Ll", "Lt", "Lm", "Lo"}


def is_java_word(c):
    return c == "_" or unicodedata.category(c) in JAVA_WORD_CATEGORIES


with open("scrapy_boilerplate/_unicode_tables.py", "w") as f:
    f.write('"""Character classes for Java-compatible tokenization (generated; do not edit).\n\n')
    f.write(
        f"Generated from Unicode {unicodedata.unidata_version} by tools/gen_unicode_tables.py.\n"
    )
    f.write(
        "Java's regex word boundary treats letters, decimal digits, '_' and non-spacing marks\n"
    )
    f.write(
        "as word characters (Python's own word class differs on numbers and marks). Each class\n"
    )
    f.write("is split into its BMP and astral parts: a class of BMP ranges alone compiles to a\n")
    f.write("constant-time lookup in Python's regex engine, a mixed one to a linear scan.\n")
    f.write('"""\n\n')
    f.write(f"UNICODE_VERSION = {unicodedata.unidata_version!r}\n\n")
    f.write("#: regex class bodies: Java regex word characters, in the BMP and above it\n")
    f.write(f"JAVA_WORD_BMP = {fmt(ranges(is_java_word, 0, 0x10000))}\n\n")
    f.write(f"JAVA_WORD_ASTRAL = {fmt(ranges(is_java_word, 0x10000, 0x110000))}\n\n")
    f.write("#: regex class bodies: letters (Java's \\p{L}), in the BMP and above it\n")
    f.write(f"LETTER_BMP = {fmt(ranges(is_letter, 0, 0x10000))}\n\n")
    f.write(f"LETTER_ASTRAL = {fmt(ranges(is_letter, 0x10000, 0x110000))}\n")
