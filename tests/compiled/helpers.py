"""Shared by the compiled twins' tests: the ``compiled`` skip marker, the twins of each
module (``TWINS``), the golden and crafted pages, random tag soup, and the checks that a
compiled twin and its pure-Python original give the same result on one tree."""

import gzip
import importlib
import os
import random
from pathlib import Path

import numpy as np
import pytest

from scrapy_boilerplate import limits, neko, parse, words
from scrapy_boilerplate.filters import comments
from scrapy_boilerplate.filters.density import _dom, cetr
from scrapy_boilerplate.metadata import bylines
from scrapy_boilerplate.neural import assemble, boosted_features, structure, textstats
from scrapy_boilerplate.parse import segment_python

# the module, not the function of the same name that the neural package exports
viterbi_module = importlib.import_module("scrapy_boilerplate.neural.viterbi")

GOLDEN = Path(__file__).parents[1] / "golden"
PURE = bool(os.environ.get("SCRAPY_BOILERPLATE_PURE_PYTHON"))

compiled = pytest.mark.skipif(PURE, reason="SCRAPY_BOILERPLATE_PURE_PYTHON is set")


def golden_pages():
    for path in sorted((GOLDEN / "pages").glob("*.html.gz")):
        yield path.name, gzip.decompress(path.read_bytes()).decode("utf-8")
    for path in sorted((GOLDEN / "crafted").glob("*.html")):
        yield path.name, path.read_text(encoding="utf-8")


def soup(seed: int) -> str:
    """Random tag soup: every tag action, anchors in anchors, embeds, comments, bodies."""
    rnd = random.Random(seed)
    tags = [
        "div",
        "p",
        "a",
        "b",
        "span",
        "li",
        "h1",
        "h2",
        "abbr",
        "script",
        "embed",
        "br",
        "body",
        "option",
        "table",
        "td",
        "title",
        "img",
        "noscript",
    ]
    pieces = []
    for _ in range(rnd.randint(1, 120)):
        kind = rnd.random()
        tag = rnd.choice(tags)
        if kind < 0.3:
            pieces.append(f"<{tag}>")
        elif kind < 0.5:
            pieces.append(f"</{tag}>")
        elif kind < 0.55:
            pieces.append("<!-- c -->")
        elif kind < 0.58:
            pieces.append(rnd.choice(["<div hidden>", "<p style='display:none'>", "<i style=x>"]))
        else:
            pieces.append(
                rnd.choice(
                    [
                        "word ",
                        " two words",
                        "\n\t",
                        "  ",
                        "x",
                        "a\u3000b",
                        "中文字",
                        "$\ue00a<",
                        " - ",
                        "https://x.y/z ",
                        # Java whitespace at the edges, and look-alikes that are not
                        # (no-break and figure spaces; control characters Java trims)
                        "\x1c\u2000edge\u3000",
                        "\u00a0nbsp\u00a0",
                        "\u2007fig\u202f",
                        "\x0b\u1680\x1f",
                        "\x01ctl\x1b",
                        "\u2063 ",
                    ]
                )
            )
    return "".join(pieces)


def segmenters_agree(root, cjk=True) -> bool:
    # both results stay alive while compared, so equal elements are the same proxies
    compiled_result = parse.segment(root, cjk)
    python_result = segment_python(root, cjk)
    return signature(compiled_result) == signature(python_result)


def walks_agree(root, skip_hidden=True) -> bool:
    start = _dom.start_element(root)
    if start is None:
        return True
    compiled_lists = _dom.walk(start, skip_hidden)
    python_lists = _dom.walk_python(start, skip_hidden)
    elements_c, *rest_c = compiled_lists
    elements_p, *rest_p = python_lists
    return [id(e) for e in elements_c] == [id(e) for e in elements_p] and rest_c == rest_p


def structures_agree(root) -> bool:
    blocks, _ = parse.segment(root)
    return structure.collapsed_dom(blocks, root) == structure.collapsed_dom_python(blocks, root)


def assembly_inputs(blocks, root):
    """What page_features hands to ``assemble``: statistics, duplicate counts, structure."""
    texts = [b.text for b in blocks]
    st = textstats.block_text_stats(texts, [b.link_density for b in blocks])
    s = structure.Structure(blocks, root)
    dup = np.array([texts.count(t) for t in texts], dtype=np.int64)
    same_path = np.array([s.class_path.count(c) for c in s.class_path], dtype=np.int64)
    return st, dup, same_path, s


def assemblies_agree(st, dup, same_path, s) -> bool:
    # equal within float32 rounding: numpy's vectorised log may differ from libm's in the
    # last bit (here they have been equal to the bit)
    for extended in (False, True):
        got = assemble.assemble(st, dup, same_path, s, extended)
        want = assemble.assemble_python(st, dup, same_path, s, extended)
        for a, b in zip(got, want, strict=True):
            if a.shape != b.shape or a.dtype != b.dtype:
                return False
            if not np.allclose(a, b, rtol=1e-6, atol=1e-6):
                return False
    return True


def features_agree(root) -> bool:
    blocks, _ = parse.segment(root)
    return not blocks or assemblies_agree(*assembly_inputs(blocks, root))


def signature(result):
    blocks, title = result
    return title, [
        (
            b.text,
            b.shown_text,
            b.num_words,
            b.num_words_in_anchor_text,
            b.num_words_in_wrapped_lines,
            b.num_wrapped_lines,
            b.offset_start,
            b.tag_level,
            sorted(b.labels),
            [id(e) for e in b.elements],  # the very same lxml elements
            [id(e) for e in b.text_of],
            [id(e) for e in b.tail_of],
        )
        for b in blocks
    ]


# each module using compiled twins: its COMPILED flag, and its (used, Python twin) names
TWINS = {
    limits: ["scan"],
    bylines: ["candidates"],
    comments: ["comment_sections"],
    neko: ["rewrite_tags"],
    parse: ["segment"],
    words: ["count_blocks", "separate_tokens", "has_astral"],
    _dom: ["walk"],
    cetr: ["kmeans_iterations"],
    structure: ["collapsed_dom", "keyword_bits"],
    textstats: ["char_counts", "stopword_words"],
    assemble: ["assemble"],
    viterbi_module: ["viterbi"],
    boosted_features: ["page_columns"],
}
