"""Authors from the byline markup of a page that declares none: an hCard author, a
``rel="author"`` link, an element whose class names a byline; never from navigation,
footers, sidebars or readers' comments; recorded with the source ``byline``."""

from __future__ import annotations

import json

from scrapy_boilerplate import extract
from scrapy_boilerplate.metadata.bylines import from_bylines
from scrapy_boilerplate.parse import parse_html

from ..helpers import LINEAR_GROWTH_LIMIT, growth

STORY = (
    "<p>A powerful storm hit the northern coast on Tuesday night, bringing heavy rain "
    "and winds of more than a hundred kilometres an hour to several towns.</p>"
)


def authors(body: str, head: str = "") -> tuple[list[str], str | None]:
    html = f"<html><head><title>Storm</title>{head}</head><body>{body}</body></html>"
    meta = extract(html, "https://daily.example/storm", metadata=True).metadata
    names = [author["name"] for author in meta.get("authors", [])]
    return names, meta.get("sources", {}).get("authors")


def test_an_hcard_author_names_the_author():
    body = (
        '<article><h1>Storm</h1><span class="byline">by <span class="author vcard">'
        '<a class="url fn n" href="/author/ann">Ann Lee</a></span></span>' + STORY
    )
    assert authors(body) == (["Ann Lee"], "byline")


def test_a_byline_class_gives_its_link_without_the_by():
    body = '<div class="post-byline">Written by <a href="/ann">Ann Lee</a></div>' + STORY
    assert authors(body) == (["Ann Lee"], "byline")
    glued = '<p class="entry-author">By<b>Bo Chen</b></p>' + STORY  # no space in the markup
    assert authors(glued) == (["Bo Chen"], "byline")


def test_a_rel_author_link_and_several_names_in_one_byline():
    assert authors('<a rel="author" href="/ann">Ann Lee</a>' + STORY)[0] == ["Ann Lee"]
    body = '<div class="article-author">Ann Lee and Bo Chen</div>' + STORY
    assert authors(body)[0] == ["Ann Lee", "Bo Chen"]


def test_declared_authors_come_first():
    declared = {"@type": "NewsArticle", "author": "Cy Diaz"}
    head = f'<script type="application/ld+json">{json.dumps(declared)}</script>'
    body = '<div class="byline">By Ann Lee</div>' + STORY
    assert authors(body, head) == (["Cy Diaz"], "json-ld")


def test_comment_authors_and_site_furniture_are_not_the_author():
    comments = (
        '<div id="comments"><div class="comment-author vcard"><b class="fn">Reader One'
        "</b></div><p>Nice story.</p></div>"
    )
    footer = '<footer><span class="author">Site Owner</span></footer>'
    sidebar = '<aside><a rel="author" href="/me">Blog Owner</a></aside>'
    nav = '<nav><a class="author-link" href="/team">Our Team</a></nav>'
    assert authors(STORY + comments + footer + sidebar + nav) == ([], None)


def test_labels_without_a_name_are_no_name():
    for label in ("Author", "Written by", "The Author", "Posted by: 12 March 2024"):
        assert authors(f'<div class="byline">{label}</div>' + STORY) == ([], None), label
    bio = '<div class="author-bio">Ann Lee writes about the weather.</div>'
    assert authors(bio + STORY) == ([], None)


def test_a_page_wide_author_container_is_not_a_byline():
    body = '<div class="author-page">' + "<p><a href='/x'>Ann Lee</a></p>" * 60 + "</div>"
    assert from_bylines(parse_html(body).root) == {}


def test_bylines_are_read_in_linear_time():
    # nested byline candidates, each holding the rest of the page: one walk of the tree,
    # a bounded look at each candidate
    def nested(n):
        html = "<body>" + '<div class="byline"><span class="author">x</span>' * n + STORY
        return parse_html(html + "</div>" * n + "</body>").root

    assert growth(from_bylines, nested, 2000) < LINEAR_GROWTH_LIMIT

    def many(n):
        return parse_html("<body>" + '<p class="author-name">Ann</p>' * n + "</body>").root

    assert growth(from_bylines, many, 5000) < LINEAR_GROWTH_LIMIT


def test_the_command_line_json_carries_byline_authors(tmp_path, capsys):
    from scrapy_boilerplate.cli import main

    page = tmp_path / "storm.html"
    page.write_text(
        "<html><body><div class='byline'>By <a href='/ann'>Ann Lee</a></div>"
        + STORY
        + "</body></html>"
    )
    assert main(["extract", str(page), "--format", "json", "--metadata"]) == 0
    out = json.loads(capsys.readouterr().out)
    record = out[0] if isinstance(out, list) else out
    assert record["metadata"]["authors"] == [{"name": "Ann Lee"}]
