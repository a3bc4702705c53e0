"""Web2Text's compiled collapsed DOM and keyword scan (``neural/_cstructure.pyx``) give
what ``structure.collapsed_dom_python`` and ``structure.keyword_bits_python`` give."""

import random

from scrapy_boilerplate import parse
from scrapy_boilerplate.neural import columns, structure
from scrapy_boilerplate.parse import build_tree

from .helpers import compiled, features_agree, golden_pages, structures_agree


@compiled
def test_both_collapsed_doms_agree_on_every_golden_and_crafted_page():
    differing = []
    for name, html in golden_pages():
        root, _ = build_tree(html)
        if not structures_agree(root):
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
    assert structures_agree(root)
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
        assert structures_agree(root)
        assert features_agree(root)


def _class_and_id_strings():
    for _, html in golden_pages():
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
