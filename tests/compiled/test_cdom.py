"""The density family's compiled DOM walk (``filters/density/_cdom.pyx``) gives what
``_dom.walk_python`` gives."""

import pytest

from scrapy_boilerplate.filters.density import _dom
from scrapy_boilerplate.parse import build_tree

from .helpers import compiled, golden_pages, walks_agree


@compiled
@pytest.mark.parametrize("skip_hidden", [True, False], ids=["skip_hidden", "all"])
def test_both_dom_walks_agree_on_every_golden_and_crafted_page(skip_hidden):
    differing = []
    for name, html in golden_pages():
        root, _ = build_tree(html)
        if not walks_agree(root, skip_hidden):
            differing.append(name)
    assert differing == []


@compiled
def test_the_dom_walks_agree_on_hidden_and_excluded_elements():
    html = (
        "<body><div hidden>a</div><p style='color: red; DISPLAY : None'>b</p>"
        "<p style=''>c</p><script>d</script><!-- e -->f<br>g<template>h</template>"
        "<?pi x?>i</body>"
    )
    root, _ = build_tree(html)
    assert walks_agree(root, True)
    assert walks_agree(root, False)
    elements, tags, *_ = _dom.walk(_dom.start_element(root), True)
    assert tags == ["body", "p", "br"]
