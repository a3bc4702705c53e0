"""The compiled markup scan (``_climits.pyx``) gives what ``limits.scan_python`` gives: on
every golden and crafted page (with limits low enough to cut them) and on random markup."""

from hypothesis import given, settings
from hypothesis import strategies as st

from scrapy_boilerplate import limits

from .helpers import compiled, golden_pages


@compiled
def test_both_scans_agree_on_every_golden_and_crafted_page():
    for _, html in golden_pages():
        for max_tags, max_attributes in ((50_000, 1_000), (50, 3), (5, 1)):
            got = limits.scan(html, max_tags, max_attributes)
            assert got == limits.scan_python(html, max_tags, max_attributes)


PIECES = ["<", ">", "<a", "<B ", "x", " ", "\t", "=", '"', "'", "/", "a=1", " b", "é", "\u3000",
          "<p>", "</p>", "c", "\U0001f600", "<!--", "-->", "<script>", "</SCRIPT>", "<style x=1>",
          "</style", "<title>", "</tItle>", "<scriptx>", "</", "\u212a"]  # fmt: skip


@compiled
@settings(max_examples=3000, deadline=None)
@given(
    st.lists(st.sampled_from(PIECES), max_size=40),
    st.integers(min_value=0, max_value=4),
    st.integers(min_value=0, max_value=3),
)
def test_both_scans_agree_on_random_markup(pieces, max_tags, max_attributes):
    html = "".join(pieces)
    assert limits.scan(html, max_tags, max_attributes) == limits.scan_python(
        html, max_tags, max_attributes
    )
