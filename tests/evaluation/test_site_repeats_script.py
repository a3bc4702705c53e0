"""``benchmarks.site_repeats``: the variants' texts of a page against its site's others."""

from __future__ import annotations

from benchmarks.site_repeats import SitePage, variant_text
from scrapy_boilerplate import get_extractor
from scrapy_boilerplate.evaluation.datasets import Page
from scrapy_boilerplate.site_memory import SiteMemory

STORY = (
    "<p>The council met on Tuesday and agreed, after a long debate about the costs and "
    "the rules, that the old harbour market will open again in the spring.</p>"
)


def _page(pid: str, extra: str) -> Page:
    html = f"<html><body><h1>Market</h1>{STORY.replace('harbour', pid)}{extra}</body></html>"
    return Page(id=pid, html=html, url=f"https://example.com/{pid}", main_text="x")


def test_a_block_another_page_of_the_site_has_is_dropped_by_any_and_kept_as_read():
    extractor, memory = get_extractor("keep_everything"), SiteMemory()
    first = SitePage(_page("a", "<p>Share this story</p>"), "example.com", extractor, memory)
    second = SitePage(_page("b", "<p>Share this story</p>"), "example.com", extractor, memory)
    assert "Share this story" in second.text
    assert "Share this story" not in variant_text(second, [first], "any")
    # keep_everything left nothing out, so neither "boiler" nor the memory drops it
    assert "Share this story" in variant_text(second, [first], "boiler")
    assert variant_text(second, [first], "site_memory") == second.text
    assert variant_text(second, [], "any") == second.text
