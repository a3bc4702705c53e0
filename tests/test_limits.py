"""The limits on the work of one page: at most MAX_TAGS start tags are read, at most
MAX_ATTRIBUTES attributes of a tag are kept; pages within them pass untouched."""

import pytest

from scrapy_boilerplate import extract
from scrapy_boilerplate.evaluation import find_datasets
from scrapy_boilerplate.limits import MAX_ATTRIBUTES, MAX_TAGS, limit_markup

from .helpers import LINEAR_GROWTH_LIMIT, growth


def test_a_page_within_the_limits_is_untouched():
    html = '<html><body><div a=1 b="2 > 3" c>text</div><p>more</p></body></html>'
    assert limit_markup(html) == (html, [])


def test_attributes_over_the_limit_are_dropped_quotes_and_values_understood():
    attributes = " ".join(f'a{i}="v > {i}"' for i in range(MAX_ATTRIBUTES + 5))
    html = f"<html><body><div {attributes}>kept text</div><p>after</p></body></html>"
    limited, warnings = limit_markup(html)
    assert "a999=" in limited and "a1000=" not in limited  # the first 1,000 stay
    assert limited.endswith("<p>after</p></body></html>")
    assert [w.split(":")[0] for w in warnings] == ["attributes_limit"]
    result = extract(html, extractor="keep_everything")
    assert result.text == "kept text\n\nafter"
    assert any(w.startswith("attributes_limit") for w in result.warnings)


def test_valueless_attributes_count_too():
    html = "<div " + " ".join(f"x{i}" for i in range(MAX_ATTRIBUTES + 1)) + ">t</div>"
    limited, warnings = limit_markup(html)
    assert "x999" in limited and "x1000" not in limited and warnings


def test_scripts_and_comments_hold_no_tags():
    # code that reads as tags with thousands of attributes, inside a script or a comment
    code = "<d.forms " + " ".join(f"x{i}" for i in range(MAX_ATTRIBUTES + 5))
    for html in (
        f"<html><body><script>{code}</script><p>after</p></body></html>",
        f"<html><body><SCRIPT type=x>{code}</Script><p>after</p></body></html>",
        f"<html><body><!-- {code} --><p>after</p></body></html>",
    ):
        assert limit_markup(html) == (html, [])
    # and a tag after them is read again
    html = "<script>x</script><div " + " ".join(f"a{i}" for i in range(MAX_ATTRIBUTES + 1)) + ">"
    assert limit_markup(html)[1]


def test_tags_over_the_limit_are_not_read():
    html = "<html><body>" + "<p>x</p>" * (MAX_TAGS + 10) + "</body></html>"
    limited, warnings = limit_markup(html)
    assert limited.count("<p>") == MAX_TAGS - 2  # <html> and <body> count
    assert [w.split(":")[0] for w in warnings] == ["tags_limit"]


def test_both_limits_on_one_page():
    attributes = " ".join(f"a{i}" for i in range(5))
    html = f"<div {attributes}>x</div>" + "<b>y</b>" * 10
    limited, warnings = limit_markup(html, max_tags=4, max_attributes=2)
    assert limited == "<div a0 a1 >x</div><b>y</b><b>y</b><b>y</b>"
    assert len(warnings) == 2


def test_no_real_page_reaches_a_limit():
    data = pytest.importorskip("pathlib").Path(__file__).resolve().parents[2] / "shared" / "data"
    if not data.is_dir():
        pytest.skip("the data sets are not beside the checkout")
    for dataset in find_datasets([data]):
        for page in dataset:
            assert limit_markup(page.html)[1] == [], (dataset.name, page.id)


def test_an_element_with_a_hundred_thousand_attributes_is_parsed_at_once():
    # libxml2 compares every attribute with every earlier one: 100k took it 12 s
    def page(n):
        return (
            "<html><body><div " + " ".join(f"a{i}=1" for i in range(n)) + ">x</div></body></html>"
        )

    assert growth(extract, page, 25_000) < LINEAR_GROWTH_LIMIT


def test_titles_that_are_never_closed_count_against_the_limit_too():
    # HTML5 reads "<title>x<title>x..." as one title, so the scan counts one tag; NekoHTML
    # (whose repair the walk replays) ends each at the next tag: 16 MB made 2 million
    # elements and took 20 s. Past MAX_TAGS such titles the rest is not read.
    from scrapy_boilerplate import neko

    head = "<html><head><title>first"
    assert neko.prepare(head + "<title>x" * 10) == head + "</title>" + "<title>x</title>" * 10
    html = head + "<title>x" * (MAX_TAGS + 10) + "<body><p>never read</p>"
    warnings: list[str] = []
    prepared = neko.prepare(html, warnings)
    assert prepared.count("</title>") == MAX_TAGS
    assert "never read" not in prepared
    assert [w.split(":")[0] for w in warnings] == ["tags_limit"]
    result = extract(html)
    assert result.text == ""  # (all of it head; its title the last, as boilerpipe reads)
    assert [w.split(":")[0] for w in result.warnings] == ["tags_limit"]
    # a page the tag limit cut already says so once
    cut = extract(head + "<title>x" * (MAX_TAGS + 10) + "<p>y</p>" * (MAX_TAGS + 10))
    assert [w.split(":")[0] for w in cut.warnings] == ["tags_limit"]


@pytest.mark.parametrize(
    "head",
    [
        "<title>" + "a long title " * 100_000 + "</title>",  # closed, 1.3 MB
        "<title>" + "<!--" * 1_000_000,  # never closed: dropping its comments was slow too
    ],
    ids=["closed", "never closed"],
)
def test_a_title_of_megabytes_keeps_its_first_characters(head):
    from scrapy_boilerplate.limits import MAX_TITLE_CHARS

    result = extract(f"<html><head>{head}</head><body><p>{'story words ' * 30}</p></body>")
    assert 0 < len(result.title) <= MAX_TITLE_CHARS
    assert [w.split(":")[0] for w in result.warnings] == ["title_limit"]
    ordinary = extract("<html><head><title>A title</title></head><body><p>text</p></body>")
    assert ordinary.title == "A title" and ordinary.warnings == ()
