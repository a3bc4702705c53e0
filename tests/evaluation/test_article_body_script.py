"""``benchmarks.article_body``: the default's blocks judged by the page's declared
``articleBody`` (an experiment, not kept)."""

from __future__ import annotations

import json

from scrapy_boilerplate.parse import parse_html

STORY = "the storm hit the northern coast on tuesday night with heavy rain and strong wind"
TEASER = "read more about our newsletter offers and the best deals of the week here today"


def page(declared: dict | None) -> str:
    head = f'<script type="application/ld+json">{json.dumps(declared)}</script>' if declared else ""
    return f"<html><head>{head}</head><body><p>{STORY}</p><p>{TEASER}</p></body></html>"


def test_the_longest_declared_body_is_found_inside_a_graph(script):
    declared = {"@graph": [{"@type": "WebPage"}, {"@type": "NewsArticle", "articleBody": STORY}]}
    assert script.declared_body(parse_html(page(declared))) == STORY
    assert script.declared_body(parse_html(page(None))) is None


def test_blocks_outside_the_declared_text_are_dropped_and_blocks_inside_it_kept(script):
    doc = parse_html(page({"@type": "NewsArticle", "articleBody": STORY}))
    story, teaser = doc.blocks
    story.is_content, teaser.is_content = False, True
    judge = script.ArticleBodyJudge(min_pairs=5, drop=0.3, add=0.9, add_pairs=8)
    assert judge(doc)
    assert story.is_content and not teaser.is_content


def test_a_page_without_enough_declared_text_is_left_alone(script):
    doc = parse_html(page({"@type": "NewsArticle", "articleBody": "too short"}))
    for block in doc.blocks:
        block.is_content = True
    assert not script.ArticleBodyJudge(5, 0.3, 0.9, 8)(doc)
    assert all(block.is_content for block in doc.blocks)
