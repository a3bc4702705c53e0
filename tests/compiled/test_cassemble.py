"""Web2Text's compiled feature arrays (``neural/_cassemble.pyx``) give what
``assemble.assemble_python`` gives."""

import numpy as np

from scrapy_boilerplate import parse
from scrapy_boilerplate.neural import assemble, structure, textstats
from scrapy_boilerplate.parse import build_tree

from .helpers import assemblies_agree, assembly_inputs, compiled, features_agree, golden_pages


@compiled
def test_both_feature_assemblies_agree_on_every_golden_and_crafted_page():
    differing = []
    for name, html in golden_pages():
        root, _ = build_tree(html)
        if root is not None and not features_agree(root):
            differing.append(name)
    assert differing == []


@compiled
def test_both_feature_assemblies_agree_on_one_block_and_on_odd_structures():
    # one block (no edges, no parent); a block without elements; elements in a detached tree
    root, _ = build_tree("<p>only one block, with 2024 in it?</p>")
    assert features_agree(root)
    root, _ = build_tree("<div><p>one <b>two</b></p><ul><li>three</li><li>four</li></ul></div>")
    blocks, _ = parse.segment(root)
    blocks.insert(1, type(blocks[0])("made up"))
    detached, _ = build_tree("<div><p>elsewhere</p></div>")
    blocks[-1].elements.append(detached.find(".//p"))
    assert structure.collapsed_dom(blocks, root) == structure.collapsed_dom_python(blocks, root)
    assert assemblies_agree(*assembly_inputs(blocks, root))


@compiled
def test_both_feature_assemblies_turn_non_finite_statistics_into_zeros():
    root, _ = build_tree("<div><p>one two three.</p><p>four five</p><p>six</p></div>")
    st, dup, same_path, s = assembly_inputs(parse.segment(root)[0], root)
    st[1, textstats.ST_LINK] = np.inf
    st[2, textstats.ST_WORDLEN] = np.nan
    for extended in (False, True):
        with np.errstate(invalid="ignore"):  # numpy warns of inf - inf; C is silent
            want = assemble.assemble_python(st, dup, same_path, s, extended)
        got = assemble.assemble(st, dup, same_path, s, extended)
        for a, b in zip(got, want, strict=True):
            assert np.isfinite(a).all() and np.isfinite(b).all()
            assert np.allclose(a, b, rtol=1e-6, atol=1e-6)
