"""The public API in a few lines, as the README shows it."""

from scrapy_boilerplate import Extraction, extract, get_extractor

ARTICLE = """<html><head><title>Big news today</title></head><body>
<div class="nav"><a href="/">Home</a> | <a href="/news">News</a> | <a href="/sport">Sport</a></div>
<h1>Big news today</h1>
<p>The city council voted on Tuesday to approve the new budget, which includes funding for
three new schools, a library and the repair of the old bridge over the river.</p>
<p>Council members debated for more than six hours before the final vote, which passed by a
narrow margin of seven to five after a long discussion about the costs.</p>
<div class="footer"><a href="/about">About us</a> <a href="/contact">Contact</a></div>
</body></html>"""


def test_extract_returns_main_text_and_title():
    result = extract(ARTICLE)
    assert isinstance(result, Extraction)
    assert result.title == "Big news today"
    assert "approve the new budget" in result.text
    assert "narrow margin" in result.text
    assert "Contact" not in result.text
    assert result.reason is None


def test_paragraphs_are_separated_by_a_blank_line():
    text = extract(ARTICLE).text
    assert "bridge over the river.\n\nCouncil members" in text


def test_extractor_objects_are_reusable():
    extractor = get_extractor("article")
    assert extractor is get_extractor("article")
    assert extractor.extract(ARTICLE).text == extractor.extract(ARTICLE).text


def test_a_site_memory_is_given_to_each_page_of_a_crawl():
    from scrapy_boilerplate import SiteMemory

    from .helpers import PAGE

    memory, extractor = SiteMemory(), get_extractor()
    result = extractor.extract(PAGE, "https://example.com/story", site_memory=memory)
    assert result.text == extractor.extract(PAGE).text  # a site's first page: as alone
    assert len(memory) == 1
