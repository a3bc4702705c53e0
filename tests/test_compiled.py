"""The compiled modules give exactly what their pure-Python twins give, and the package
works without them: the segmenter (``_csegment.pyx`` = ``parse.segment_python``), the
blocks' token separation and word statistics (``_cwords.pyx`` = ``words.separate_tokens_python``
and ``words.count_blocks_python``) and the density
family's DOM walk (``filters/density/_cdom.pyx`` = ``_dom.walk_python``), and Web2Text's
collapsed DOM (``neural/_cstructure.pyx`` = ``features.collapsed_dom_python``), text
statistics (``neural/_ctextstats.pyx``) and feature arrays (``neural/_cassemble.pyx`` =
``features.assemble_python``), and its decoder (``neural/_cviterbi.pyx`` =
``viterbi.viterbi_python``).

Installing the package compiles them where Cython and a C compiler are at hand (they are on
our CI machine, so here they must be built); ``SCRAPY_BOILERPLATE_PURE_PYTHON=1`` turns them
off.
"""

import gzip
import importlib
import os
import random
import runpy
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from scrapy_boilerplate import parse, words
from scrapy_boilerplate._compiled import TWINNED, is_stale, twin_name
from scrapy_boilerplate.filters.density import _dom, cetr
from scrapy_boilerplate.neural import assemble, columns, structure, textstats
from scrapy_boilerplate.parse import build_tree, segment_python

# the module, not the function of the same name that the neural package exports
viterbi_module = importlib.import_module("scrapy_boilerplate.neural.viterbi")

GOLDEN = Path(__file__).parent / "golden"
PURE = bool(os.environ.get("SCRAPY_BOILERPLATE_PURE_PYTHON"))

compiled = pytest.mark.skipif(PURE, reason="SCRAPY_BOILERPLATE_PURE_PYTHON is set")


def _golden_pages():
    for path in sorted((GOLDEN / "pages").glob("*.html.gz")):
        yield path.name, gzip.decompress(path.read_bytes()).decode("utf-8")
    for path in sorted((GOLDEN / "crafted").glob("*.html")):
        yield path.name, path.read_text(encoding="utf-8")


def _soup(seed: int) -> str:
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


def _agree(root, cjk=True) -> bool:
    # both results stay alive while compared, so equal elements are the same proxies
    compiled_result = parse.segment(root, cjk)
    python_result = segment_python(root, cjk)
    return _signature(compiled_result) == _signature(python_result)


def _walks_agree(root, skip_hidden=True) -> bool:
    start = _dom.start_element(root)
    if start is None:
        return True
    compiled_lists = _dom.walk(start, skip_hidden)
    python_lists = _dom.walk_python(start, skip_hidden)
    elements_c, *rest_c = compiled_lists
    elements_p, *rest_p = python_lists
    return [id(e) for e in elements_c] == [id(e) for e in elements_p] and rest_c == rest_p


def _structures_agree(root) -> bool:
    blocks, _ = parse.segment(root)
    return structure.collapsed_dom(blocks, root) == structure.collapsed_dom_python(blocks, root)


def _assembly_inputs(blocks, root):
    """What page_features hands to ``assemble``: statistics, duplicate counts, structure."""
    texts = [b.text for b in blocks]
    st = textstats.block_text_stats(texts, [b.link_density for b in blocks])
    s = structure.Structure(blocks, root)
    dup = np.array([texts.count(t) for t in texts], dtype=np.int64)
    same_path = np.array([s.class_path.count(c) for c in s.class_path], dtype=np.int64)
    return st, dup, same_path, s


def _assemblies_agree(st, dup, same_path, s) -> bool:
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


def _features_agree(root) -> bool:
    blocks, _ = parse.segment(root)
    return not blocks or _assemblies_agree(*_assembly_inputs(blocks, root))


def _signature(result):
    blocks, title = result
    return title, [
        (
            b.text,
            b.num_words,
            b.num_words_in_anchor_text,
            b.num_words_in_wrapped_lines,
            b.num_wrapped_lines,
            b.offset_start,
            b.tag_level,
            sorted(b.labels),
            [id(e) for e in b.elements],  # the very same lxml elements
        )
        for b in blocks
    ]


# each module using compiled twins: its COMPILED flag, and its (used, Python twin) names
TWINS = {
    parse: ["segment"],
    words: ["count_blocks", "separate_tokens"],
    _dom: ["walk"],
    cetr: ["kmeans_iterations"],
    structure: ["collapsed_dom", "keyword_bits"],
    textstats: ["char_counts", "stopword_words"],
    assemble: ["assemble"],
    viterbi_module: ["viterbi"],
}


@compiled
@pytest.mark.parametrize("module", list(TWINS), ids=lambda m: m.__name__.rpartition(".")[2])
def test_the_compiled_twins_are_built_and_used(module):
    assert module.COMPILED, (
        f"the compiled twins of {module.__name__} are not built: reinstall with "
        "`pip install -e .` (needs Cython and a C compiler)"
    )
    for name in TWINS[module]:
        python_twin = getattr(module, f"{name}_python")
        assert getattr(module, name) is not python_twin
        assert "cython" in type(getattr(module, name)).__name__


def test_each_twin_is_named_after_its_original_and_listed_once():
    package = Path(parse.__file__).parent
    assert twin_name("parse") == "_cparse"
    assert twin_name("filters.density._dom") == "filters.density._cdom"
    assert twin_name("scrapy_boilerplate.neural.viterbi") == "scrapy_boilerplate.neural._cviterbi"
    listed = {package / (twin_name(m).replace(".", "/") + ".pyx") for m in TWINNED}
    on_disk = set(package.rglob("_c*.pyx"))
    assert listed == on_disk
    for module in TWINNED:  # and each original is a module beside its twin
        assert (package / (module.replace(".", "/") + ".py")).is_file()
    # the tests below cover every twin
    assert {m.__name__.removeprefix("scrapy_boilerplate.") for m in TWINS} == set(TWINNED)


def test_setup_builds_the_listed_twins(monkeypatch):
    import Cython.Build
    import setuptools

    built = {}
    monkeypatch.setattr(Cython.Build, "cythonize", lambda extensions, **kw: extensions)
    monkeypatch.setattr(setuptools, "setup", lambda **kw: built.update(kw))
    monkeypatch.delenv("SCRAPY_BOILERPLATE_PURE_PYTHON", raising=False)
    runpy.run_path(str(Path(parse.__file__).parents[1] / "setup.py"), run_name="setup")
    names = {ext.name for ext in built["ext_modules"]}
    assert names == {f"scrapy_boilerplate.{twin_name(m)}" for m in TWINNED}
    assert all(ext.optional for ext in built["ext_modules"])


def test_a_twin_built_before_its_sources_changed_is_stale(tmp_path):
    compiled_file, pyx, py = (tmp_path / n for n in ("_cx.so", "_cx.pyx", "x.py"))
    for f in (compiled_file, pyx, py):
        f.write_text("")
    os.utime(pyx, (1000, 1000))
    os.utime(py, (1000, 1000))
    os.utime(compiled_file, (2000, 2000))
    assert not is_stale(compiled_file, [pyx, py, tmp_path / "absent.pxd"])
    os.utime(py, (3000, 3000))  # the Python twin edited after the build
    assert is_stale(compiled_file, [pyx, py])
    os.utime(py, (1000, 1000))
    os.utime(pyx, (3000, 3000))  # the .pyx edited after the build
    assert is_stale(compiled_file, [pyx, py])


@compiled
def test_importing_a_stale_twin_warns_loudly(tmp_path):
    # a copy of the package whose parse.py is newer than its compiled segmenter
    package = Path(parse.__file__).parent
    copy = tmp_path / "scrapy_boilerplate"
    shutil.copytree(package, copy, ignore=shutil.ignore_patterns("__pycache__"))
    later = copy / "_cparse.pyx"
    stamp = max(f.stat().st_mtime for f in copy.rglob("_cparse*.so")) + 10
    os.utime(copy / "parse.py", (stamp, stamp))
    os.utime(later, (stamp - 20, stamp - 20))
    code = "import warnings; warnings.simplefilter('error'); import scrapy_boilerplate"
    env = {**os.environ, "PYTHONPATH": str(tmp_path)}
    done = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, cwd=tmp_path
    )
    assert done.returncode != 0
    assert "scrapy_boilerplate._cparse was built before the last change" in done.stderr
    assert "pip install -e ." in done.stderr


@compiled
@pytest.mark.parametrize("cjk", [True, False], ids=["cjk", "java"])
def test_both_segmenters_agree_on_every_golden_and_crafted_page(cjk):
    differing = []
    count = 0
    for name, html in _golden_pages():
        root, _ = build_tree(html)
        count += 1
        if not _agree(root, cjk):
            differing.append(name)
    assert count > 90
    assert differing == []


@compiled
@pytest.mark.parametrize("cjk", [True, False], ids=["cjk", "java"])
def test_both_word_counters_agree_on_every_golden_and_crafted_page(cjk, monkeypatch):
    differing = []
    for name, html in _golden_pages():
        root, _ = build_tree(html)
        compiled_result = parse.segment(root, cjk)
        with monkeypatch.context() as patch:
            patch.setattr(words, "count_blocks", words.count_blocks_python)
            python_result = parse.segment(root, cjk)
        if _signature(compiled_result) != _signature(python_result):
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
@pytest.mark.parametrize("skip_hidden", [True, False], ids=["skip_hidden", "all"])
def test_both_dom_walks_agree_on_every_golden_and_crafted_page(skip_hidden):
    differing = []
    for name, html in _golden_pages():
        root, _ = build_tree(html)
        if not _walks_agree(root, skip_hidden):
            differing.append(name)
    assert differing == []


@compiled
def test_both_segmenters_and_walks_agree_on_random_tag_soup():
    for seed in range(300):
        root, _ = build_tree(_soup(seed))
        assert _agree(root), seed
        assert _walks_agree(root), seed
        assert _structures_agree(root), seed
        assert _features_agree(root), seed


def _initial_centres(points, k):
    mean, top = points.mean(axis=0), points.max(axis=0)
    steps = np.linspace(0.0, 1.0, k - 1)
    return np.vstack([np.zeros(points.shape[1])] + [mean + s * (top - mean) for s in steps])


@compiled
def test_both_kmeans_agree_on_random_points():
    # ties (whole numbers), all points equal, no iterations, tolerance 0, 1-3 dimensions
    rng = np.random.default_rng(0)
    for case in range(2000):
        n, dims, k = int(rng.integers(1, 200)), int(rng.integers(1, 4)), int(rng.integers(2, 5))
        points = rng.exponential(3.0, size=(n, dims))
        if case % 3 == 0:
            points = np.round(points)
        if case % 7 == 0:
            points[:] = 1.0
        centres = _initial_centres(points, k)
        max_iter, tol = int(rng.integers(0, 60)), float(rng.choice([1e-3, 0.0, 1.0]))
        expected = cetr.kmeans_iterations_python(points, centres, max_iter, tol)
        got = cetr.kmeans_iterations(points, centres, max_iter, tol)
        assert got.dtype == expected.dtype and (got == expected).all(), case


@compiled
def test_both_kmeans_agree_on_cetr_lines_of_every_golden_and_crafted_page():
    differing = []
    for name, html in _golden_pages():
        root, _ = build_tree(html)
        stats = _dom.dom_stats(root)
        if stats is None:
            continue
        chars, tags, *_ = cetr.cetr_lines(stats)
        points = cetr.cetr_features(chars / np.maximum(tags, 1.0))
        if len(points) == 0:
            continue
        centres = _initial_centres(points, 3)
        expected = cetr.kmeans_iterations_python(points, centres, 50, 1e-3)
        if not (cetr.kmeans_iterations(points, centres, 50, 1e-3) == expected).all():
            differing.append(name)
    assert differing == []


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
    for name, html in _golden_pages():
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


@compiled
def test_both_collapsed_doms_agree_on_every_golden_and_crafted_page():
    differing = []
    for name, html in _golden_pages():
        root, _ = build_tree(html)
        if not _structures_agree(root):
            differing.append(name)
    assert differing == []


@compiled
def test_both_collapsed_doms_agree_on_attributes_forms_and_odd_blocks():
    # class / id words, hidden flags, namespaced tags, forms, comments as block elements,
    # a block without elements and blocks whose elements lie in different subtrees
    html = (
        "<body><div class='nav menu' id=top><a href=x>home</a> <a>news</a></div>"
        "<main><article class=story><p>one <b>two</b></p><p hidden>three</p>"
        "<p style='Display : none'>four</p><p aria-hidden=true>five</p><p class=''>six</p>"
        "<svg:g>seven</svg:g><form><input name=q> eight</form></article></main>"
        "<footer id=copyright>nine<!-- c -->ten</footer></body>"
    )
    root, _ = build_tree(html)
    assert _structures_agree(root)
    blocks, _ = parse.segment(root)
    blocks.insert(1, type(blocks[0])("made up"))
    blocks[-1].elements.extend(blocks[0].elements)
    blocks[-2].elements.append(root.find(".//footer").getprevious())
    blocks[-1].elements.append(root.find(".//footer")[0])  # the comment
    assert structure.collapsed_dom(blocks, root) == structure.collapsed_dom_python(blocks, root)
    assert structure.collapsed_dom([], None) == structure.collapsed_dom_python([], None)


@compiled
def test_both_collapsed_doms_agree_on_deep_nesting():
    # deeper than the compiled pass's first stack and node table (both grow)
    html = "<body>" + "".join(f"<div class=d{i}>level {i}" for i in range(500)) + "</body>"
    html += "<p>after the nest</p>"
    few_blocks = "<body><p>top</p>" + "<div>" * 500 + "deep" + "</div>" * 500 + "</body>"
    for page in (html, few_blocks):
        root, _ = build_tree(page)
        assert _structures_agree(root)
        assert _features_agree(root)


@compiled
def test_both_feature_assemblies_agree_on_every_golden_and_crafted_page():
    differing = []
    for name, html in _golden_pages():
        root, _ = build_tree(html)
        if root is not None and not _features_agree(root):
            differing.append(name)
    assert differing == []


@compiled
def test_both_feature_assemblies_agree_on_one_block_and_on_odd_structures():
    # one block (no edges, no parent); a block without elements; elements in a detached tree
    root, _ = build_tree("<p>only one block, with 2024 in it?</p>")
    assert _features_agree(root)
    root, _ = build_tree("<div><p>one <b>two</b></p><ul><li>three</li><li>four</li></ul></div>")
    blocks, _ = parse.segment(root)
    blocks.insert(1, type(blocks[0])("made up"))
    detached, _ = build_tree("<div><p>elsewhere</p></div>")
    blocks[-1].elements.append(detached.find(".//p"))
    assert structure.collapsed_dom(blocks, root) == structure.collapsed_dom_python(blocks, root)
    assert _assemblies_agree(*_assembly_inputs(blocks, root))


@compiled
def test_both_feature_assemblies_turn_non_finite_statistics_into_zeros():
    root, _ = build_tree("<div><p>one two three.</p><p>four five</p><p>six</p></div>")
    st, dup, same_path, s = _assembly_inputs(parse.segment(root)[0], root)
    st[1, textstats.ST_LINK] = np.inf
    st[2, textstats.ST_WORDLEN] = np.nan
    for extended in (False, True):
        with np.errstate(invalid="ignore"):  # numpy warns of inf - inf; C is silent
            want = assemble.assemble_python(st, dup, same_path, s, extended)
        got = assemble.assemble(st, dup, same_path, s, extended)
        for a, b in zip(got, want, strict=True):
            assert np.isfinite(a).all() and np.isfinite(b).all()
            assert np.allclose(a, b, rtol=1e-6, atol=1e-6)


@compiled
def test_both_viterbi_decoders_give_the_same_labels_on_random_scores_with_ties():
    # whole-number scores tie often: both must break ties alike (label 0, earlier path)
    rng = np.random.default_rng(5)
    for trial in range(2000):
        n = int(rng.integers(1, 40))
        if trial % 2:
            u, e = rng.integers(-3, 1, size=(n, 2)), rng.integers(-3, 1, size=(n - 1, 4))
        else:
            u, e = rng.normal(size=(n, 2)), rng.normal(size=(n - 1, 4))
        u, e = u.astype(np.float32), e.astype(np.float32)
        lam = float(rng.choice([0.0, 0.1, 1.0, 2.5]))
        got = viterbi_module.viterbi(u, e, lam)
        want = viterbi_module.viterbi_python(u, e, lam)
        assert got.dtype == want.dtype and got.tolist() == want.tolist(), trial


def _class_and_id_strings():
    for _, html in _golden_pages():
        root, _ = build_tree(html)
        if root is None:
            continue
        for el in root.iter():
            for name in ("class", "id"):
                value = el.get(name) if isinstance(el.tag, str) else None
                if value:
                    yield value


@compiled
def test_both_keyword_scans_agree_on_every_class_and_id_and_on_random_strings():
    from scrapy_boilerplate.neural import _cstructure

    def agree(value):
        structure._kw_cache.clear()  # the Python twin's cache must not answer for it
        return _cstructure.keyword_bits(value) == structure.keyword_bits_python(value)

    real = list(_class_and_id_strings())
    assert len(real) > 1000
    assert [v for v in real if not agree(v)] == []
    # literals glued together, cut, prefixed and suffixed: overlaps ("mainav": "main" wins
    # and "nav" is not found), lookarounds ("ads", "tag"), non-ASCII letters that lower-case
    # to ASCII (Kelvin sign), separators of every kind
    literals = [lit.strip("^$") for _, group in columns.KEYWORD_GROUPS for lit in group]
    alphabet = "adstgrhenx-_ .,:/0İ\u212a\u00e9\xa0\t" + "abcdefghijklmnopqrstuvwxyz"
    rng = random.Random(6)
    for _ in range(20_000):
        parts = [
            rng.choice(literals)[: rng.randint(1, 12)]
            if rng.random() < 0.6
            else "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 4)))
            for _ in range(rng.randint(1, 6))
        ]
        value = "".join(parts)
        assert agree(value), value
        assert agree(value.upper()), value


def test_keyword_groups_match_words_not_letters_inside_other_words():
    bits = structure._KW_BIT
    assert structure.keyword_bits("site-header") == bits["header"]
    assert structure.keyword_bits("ads-top") == bits["ad"]
    assert structure.keyword_bits("Header") & bits["ad"] == 0  # "ad" inside a word
    assert structure.keyword_bits("stage") == 0  # "tag" inside a word
    assert structure.keyword_bits("post-tags") == bits["content"] | bits["meta"]
    assert structure.keyword_bits("mainav") == bits["content"]  # leftmost match wins
    assert structure.keyword_bits("") == 0


@compiled
def test_the_dom_walks_agree_on_hidden_and_excluded_elements():
    html = (
        "<body><div hidden>a</div><p style='color: red; DISPLAY : None'>b</p>"
        "<p style=''>c</p><script>d</script><!-- e -->f<br>g<template>h</template>"
        "<?pi x?>i</body>"
    )
    root, _ = build_tree(html)
    assert _walks_agree(root, True)
    assert _walks_agree(root, False)
    elements, tags, *_ = _dom.walk(_dom.start_element(root), True)
    assert tags == ["body", "p", "br"]


@compiled
def test_both_segmenters_agree_on_a_subtree_and_on_nothing():
    root, _ = build_tree("<div><p>one <a href=x>two</a></p>tail</div><p>three</p>")
    div = root.find(".//div")
    assert _agree(div)
    assert parse.segment(None) == segment_python(None) == ([], None)


@compiled
def test_the_compiled_segmenter_takes_only_lxml_elements():
    with pytest.raises(TypeError):
        parse.segment("<p>not a tree</p>")


def test_without_the_compiled_segmenter_the_package_still_extracts():
    code = (
        "from scrapy_boilerplate import extract, parse; "
        "r = extract('<html><body><p>' + 'Plain Python still works here. ' * 9 + '</p>'); "
        "print(parse.COMPILED, len(r.text.split()))"
    )
    env = {**os.environ, "SCRAPY_BOILERPLATE_PURE_PYTHON": "1"}
    out = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
    ).stdout.split()
    assert out == ["False", "45"]
