"""Writes scrapy_boilerplate/_unicode_tables.py (run from the repository root)."""
import sys
import unicodedata

def ranges(pred):
    out, start, prev = [], None, None
    for cp in range(0x110000):
        if 0xD800 <= cp <= 0xDFFF:
            ok = False
        else:
            ok = pred(chr(cp))
        if ok and start is None:
            start = cp
        if not ok and start is not None:
            out.append((start, cp - 1)); start = None
    if start is not None:
        out.append((start, 0x10FFFF))
    return out

def fmt(rs):
    def esc(cp):
        return f"\\U{cp:08x}" if cp > 0xFFFF else f"\\u{cp:04x}"
    parts = [esc(a) if a == b else f"{esc(a)}-{esc(b)}" for a, b in rs]
    lines, line = [], ""
    for p in parts:
        if len(line) + len(p) > 80:
            lines.append(line); line = ""
        line += p
    lines.append(line)
    return "(\n" + "\n".join(f'    "{l}"' for l in lines) + "\n)"

no_nl = ranges(lambda c: unicodedata.category(c) in ("No", "Nl"))
mn = ranges(lambda c: unicodedata.category(c) == "Mn")
with open("scrapy_boilerplate/_unicode_tables.py", "w") as f:
    f.write('"""Character classes for Java-compatible tokenization (generated; do not edit).\n\n')
    f.write(f"Generated from Unicode {unicodedata.unidata_version} by tools/gen_unicode_tables.py.\n")
    f.write('Java\'s regex word boundary treats letters, decimal digits, "_" and non-spacing marks\n')
    f.write("as word characters; Python's ``\\w`` also admits the No and Nl number categories and\n")
    f.write('leaves out non-spacing marks. These ranges let ``words.py`` correct for both.\n"""\n\n')
    f.write(f"UNICODE_VERSION = {unicodedata.unidata_version!r}\n\n")
    f.write("#: regex class body: characters of categories No and Nl\n")
    f.write(f"NUMBER_OTHER_OR_LETTER = {fmt(no_nl)}\n\n")
    f.write("#: regex class body: characters of category Mn\n")
    f.write(f"NONSPACING_MARKS = {fmt(mn)}\n")
print(len(no_nl), len(mn))
