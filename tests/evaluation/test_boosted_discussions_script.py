"""``benchmarks.boosted_discussions``: the pages that declare a discussion read by another
model, every other page by the default's (what the default's discussions model does)."""

from __future__ import annotations

from scrapy_boilerplate.evaluation.evaluate import PageResult
from scrapy_boilerplate.evaluation.metrics import score_page


def result(page_id: str, text: str) -> PageResult:
    return PageResult(page_id, 1.0, "plain", score_page("a b c d", text))


def test_only_the_declared_pages_take_the_other_models_result(script):
    base = [result("1", "a b c d"), result("2", "x y")]
    gated = script.gated(base, {"2": result("2", "a b c d")})
    assert [r.id for r in gated] == ["1", "2"]
    assert gated[0] is base[0] and gated[1].score.f1 == 1.0


def test_a_declaration_is_found_in_json_ld_or_microdata_not_in_the_text(script):
    json_ld = '<script type="application/ld+json">{"@type": "DiscussionForumPosting"}</script>'
    assert script.markup_declares_discussion(f"<html><head>{json_ld}</head><body>x</body></html>")
    microdata = '<div itemscope itemtype="https://schema.org/QAPage"><p>How?</p></div>'
    assert script.markup_declares_discussion(f"<html><body>{microdata}</body></html>")
    assert not script.markup_declares_discussion("<p>We mark threads as QAPage.</p>")
    assert not script.markup_declares_discussion("")
