#!/usr/bin/env python
"""Hostile pages: time per extractor on crafted pages of 1 MB, and peak memory per page on
pages of tiny elements.

    python -m benchmarks.hostile times  [--size-mb 1] [--extractors a,b] [--outputs]
    python -m benchmarks.hostile memory [--sizes 1,4,16] [--extractors a,b]

``times``: each crafted page (the inputs of the issue on hostile pages: stray ``</p ``,
``<title `` and ``<embed `` without ``>``, unclosed titles, an e-mail-like run, one element
with distinct attributes, tiny elements, ...; and those that once stalled the outputs
beside the text: nesting deeper than Python's stack, nested microdata, a paragraph of line
breaks or of no-break spaces) scaled to ``--size-mb``, through every extractor, in one
process; the time of one extraction each. ``--outputs``: with every output on (Markdown,
HTML, metadata, comments), as a crawl that stores whole articles runs it.

``memory``: for each extractor and size, a fresh process extracts one page of tiny
elements (``<p>x</p>`` repeated: one block per 8 bytes, the worst case for memory) after a
warm-up; the growth of its peak resident memory (``ru_maxrss``) is the page's cost,
reported in MB and as a multiple of the page's size. The page's own string is part of it.

The crawl with a hostile page among 300 good ones: ``python -m benchmarks.crawl_speed
--pages 300 --variants with,with+hostile,process,process+hostile``. Not a test: nothing is
asserted.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time

from scrapy_boilerplate import EXTRACTORS, get_extractor

MB = 1024 * 1024

_PARAGRAPH = "<p>" + "word " * 60 + "</p>"
#: page name -> (start, repeated unit): the unit is repeated to fill the size
CRAFTED = {
    "stray </p without >": ("<html><body><p>x</p>", "</p "),
    "<title without >": ("<html><head>", "<title "),
    "<embed without >": ("<html><body>", "<embed "),
    # objects read as a browser without plugins (parse.read_plugin_fallbacks), each with an
    # unclosed embed after it, which libxml2 nests in the one before
    "plugin fallbacks": ("<html><body><div>", "<object data=v.swf><p>caption</p></object><embed>"),
    "unclosed titles": ("<html><head>", "<title>x"),
    "comments opened in a title": ("<html><head><title>", "<!--"),
    "e-mail-like run": ("<p>a@", "a-"),
    "distinct attributes": ("<html><body><div ", None),  # a1=1 a2=1 ...
    "tiny elements": ("<html><body>", "<p>x</p>"),
    "line breaks": ("<html><body>", "a<br>"),
    "no-break spaces": ("<html><body><p>", "&nbsp;"),
    # one word of the whole page's length (a tokenizer segments it in one piece)
    "one word without a space": ("<html><body><p>", "ab3Xq"),
    # nested 1,500 deep (within libxml2's limit of 2,048), article text inside
    "nested blockquotes": ("<html><body>" + "<blockquote>" * 1500, _PARAGRAPH),
    "nested bold": ("<html><body><p>" + "<b>" * 1500, "word "),
    "nested microdata authors": ("<html><body>" + "<div itemprop='author'>" * 1500, _PARAGRAPH),
    # a short story under comment threads only: the default reads the page again without
    # them (filters/threads.py), each thread holding a heading it must look for
    "story under threads": (
        "<html><body>" + _PARAGRAPH,
        "<div class='comment'><h1>Re:</h1><p>a reader agrees with the story</p></div>",
    ),
    # one image whose data: address is the whole page: little text, megabytes of markup
    # (htmldate's last resort searched all of it: metadata.article.MAX_MARKUP_SEARCHED)
    "one data: address": ('<html><body><p>A story.</p><img src="data:image/png;base64,', "AAAA"),
    # 900 dated elements, each a distinct date-like string that only dateparser could read
    # (htmldate reads up to 1,000 such elements; metadata.date_budget bounds it), then text
    "dated elements": (
        "<html><body>"
        + "".join(f'<span class="date">x{i} 5 zorblat, qux-{i} 2021/x</span>' for i in range(900)),
        _PARAGRAPH,
    ),
    # JSON-LD scripts of 64 KB that are not JSON: extruct's fallback reads each in Python
    # (metadata.sources.MAX_JSON_LD_CHARS bounds what a page's scripts hold in all)
    "broken JSON-LD scripts": (
        "<html><head>",
        '<script type="application/ld+json">{"@type": "NewsArticle", "headline": "'
        + "x" * 65_536
        + '" ,,}</script>',
    ),
    # cells spanning the HTML standard's 1,000 columns each (their colspan was not bounded)
    "wide colspans": ("<html><body><table><tr>", "<td colspan=100000000>x y</td>"),
    # a row of 10,000 cells over rows of one (padding every row to the widest: n * n)
    "ragged table": (
        "<html><body><table><tr>" + "<td>c</td>" * 10_000 + "</tr>",
        "<tr><td>one cell</td></tr>",
    ),
}
#: what closes a crafted page after its repeated unit, where it needs closing to mean what
#: it says (an attribute value left open to the end of the page is dropped by libxml2)
ENDINGS = {
    "one data: address": '"><p>The end of the story.</p></body></html>',
    "broken JSON-LD scripts": "</head><body><p>The story.</p></body></html>",
}
#: every output beside the text (``--outputs``)
ALL_OUTPUTS = {"formats": ("markdown", "html"), "metadata": True, "comments": True}


def crafted_page(name: str, size: int) -> str:
    start, unit = CRAFTED[name]
    if unit is None:
        attributes: list[str] = []
        length = len(start)
        while length < size:
            attributes.append(f"a{len(attributes)}=1")
            length += len(attributes[-1]) + 1
        return start + " ".join(attributes) + ">x</div></body></html>"
    end = ENDINGS.get(name, "")
    return start + unit * ((size - len(start) - len(end)) // len(unit)) + end


def times(names: list[str], size_mb: float, outputs: bool = False) -> None:
    size = int(size_mb * MB)
    options = ALL_OUTPUTS if outputs else {}
    every = ", every output on" if outputs else ""
    print(f"seconds per extraction of a {size_mb:g} MB page (one run each{every})")
    print(f"| page | {' | '.join(names)} |")
    print(f"|---|{'---:|' * len(names)}")
    for page in CRAFTED:
        html = crafted_page(page, size)
        cells = []
        for name in names:
            extractor = get_extractor(name)
            start = time.perf_counter()
            result = extractor.extract(html, "https://hostile.example/", **options)
            seconds = time.perf_counter() - start
            cells.append(f"{seconds:.2f}" + (" (timeout)" if result.reason == "timeout" else ""))
        print(f"| {page} | {' | '.join(cells)} |", flush=True)


_CHILD = """
import gc, json, resource, sys
from scrapy_boilerplate import get_extractor
name, size = sys.argv[1], int(sys.argv[2])
extractor = get_extractor(name)
extractor.extract("<html><body><p>" + "warm up text " * 50 + "</p></body></html>")
gc.collect()
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
html = "<html><body>" + "<p>x</p>" * (size // 8)
result = extractor.extract(html)
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
print(json.dumps({"kb": peak - before, "warnings": list(result.warnings)}))
"""


def memory(names: list[str], sizes_mb: list[float]) -> None:
    print("peak memory of one page of tiny elements, MB (multiple of the page's size)")
    print(f"| extractor | {' | '.join(f'{s:g} MB' for s in sizes_mb)} |")
    print(f"|---|{'---:|' * len(sizes_mb)}")
    for name in names:
        cells = []
        for size_mb in sizes_mb:
            done = subprocess.run(
                [sys.executable, "-c", _CHILD, name, str(int(size_mb * MB))],
                capture_output=True,
                text=True,
                check=True,
            )
            kb = json.loads(done.stdout.strip().splitlines()[-1])["kb"]
            cells.append(f"{kb / 1024:.0f} ({kb / 1024 / size_mb:.0f}x)")
        print(f"| {name} | {' | '.join(cells)} |", flush=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("what", choices=("times", "memory"))
    parser.add_argument("--extractors", default=",".join(sorted(EXTRACTORS)))
    parser.add_argument("--size-mb", type=float, default=1.0)
    parser.add_argument("--sizes", default="1,4,16", help="memory: page sizes in MB")
    parser.add_argument(
        "--outputs", action="store_true", help="times: Markdown, HTML, metadata, comments too"
    )
    args = parser.parse_args(argv)
    names = args.extractors.split(",")
    if args.what == "times":
        times(names, args.size_mb, args.outputs)
    else:
        memory(names, [float(s) for s in args.sizes.split(",")])
    return 0


if __name__ == "__main__":
    sys.exit(main())
