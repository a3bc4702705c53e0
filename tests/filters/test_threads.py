"""WithoutCommentThreads (``filters/threads.py``): a short story under a long discussion,
on which the labeler finds nothing, is read again without its comment threads."""

import copy
import json

import pytest

from scrapy_boilerplate import extract, get_extractor
from scrapy_boilerplate.filters import NoscriptContent, WithoutCommentThreads
from scrapy_boilerplate.filters.threads import declares_discussion, outermost_threads
from scrapy_boilerplate.parse import parse_html

from ..helpers import LINEAR_GROWTH_LIMIT, growth

STORY = (
    "The city council voted on Tuesday to close the old swimming pool at the end of the "
    "summer, after an engineers' report found that repairing its roof would cost more "
    "than building a new one."
)
_WORDS = (
    "i think this is really the wrong decision and the council should have asked the "
    "people who swim there every morning before they voted on it"
).split()


def comment(i: int) -> str:
    """One reader's comment as WordPress marks it up (60 words, made up)."""
    body = " ".join(_WORDS[(i * 7 + k * 3) % len(_WORDS)] for k in range(60))
    return (
        f'<li class="comment" id="comment-{i}"><div class="comment-author"><cite>reader{i}'
        f'</cite> says:</div><div class="comment-meta"><a href="#comment-{i}">July '
        f"{i % 28 + 1}, 2012 at 9:{i % 60:02d} pm</a></div><p>{body.capitalize()}.</p>"
        '<div class="reply"><a href="#respond">Reply</a></div></li>'
    )


def blog_page(comments: int = 40, head: str = "", post_class: str = "post") -> str:
    """A blog post of 33 words under ``comments`` readers' comments."""
    thread = "".join(comment(i) for i in range(comments))
    return (
        f"<html><head><title>Pool to close | Town Post</title>{head}</head><body>"
        '<div id="header"><a href="/">Town Post</a> <a href="/news">News</a> '
        '<a href="/sport">Sport</a></div>'
        f'<div class="{post_class}"><h2>Pool to close</h2><p>{STORY}</p></div>'
        f'<div id="comments"><h3>{comments} comments</h3><ol class="commentlist">{thread}'
        '</ol></div><div id="footer"><a href="/about">About</a> '
        '<a href="/privacy">Privacy</a></div></body></html>'
    )


DISCUSSION_LD = (
    '<script type="application/ld+json">{"@context": "https://schema.org", '
    '"@type": "DiscussionForumPosting", "headline": "Pool to close"}</script>'
)


def test_the_default_reads_a_story_that_its_comments_drown():
    pytest.importorskip("onnxruntime", reason="onnxruntime is not installed")
    result = extract(blog_page())
    assert STORY in result.text
    assert "reader3" not in result.text and "wrong decision" not in result.text
    assert result.reason is None


def test_without_the_filter_the_same_page_has_no_content():
    pytest.importorskip("onnxruntime", reason="onnxruntime is not installed")
    result = extract(blog_page(), extractor=[{"boosted": {"without_comments": False}}])
    assert result.text == ""
    assert result.reason == "no_content"


def test_the_renderings_come_from_the_page_without_its_threads():
    pytest.importorskip("onnxruntime", reason="onnxruntime is not installed")
    result = extract(blog_page(), formats=("markdown", "html"))
    assert STORY in result.markdown
    assert "swimming pool" in result.html
    assert "reader3" not in result.html


def test_a_page_that_declares_a_discussion_is_left_alone():
    # on a forum thread the posts are the content: without them nothing of it is left
    doc = parse_html(blog_page(head=DISCUSSION_LD))
    assert declares_discussion(doc.root)
    assert not WithoutCommentThreads("keep_everything")(doc)
    assert not any(block.is_content for block in doc.blocks)
    microdata = blog_page(post_class='post" itemscope itemtype="https://schema.org/QAPage')
    assert declares_discussion(parse_html(microdata).root)
    assert not declares_discussion(parse_html(blog_page()).root)


def test_what_is_left_is_the_page_less_its_threads():
    doc = parse_html(blog_page())
    assert WithoutCommentThreads("keep_everything")(doc)
    text = doc.content()
    assert STORY in text and "Pool to close" in text and "Town Post" in text
    assert "comments" not in text and "reader" not in text


def test_a_section_that_holds_the_headline_is_not_a_thread():
    # an article wrapped in <div class="post has-comments">, its <h1> inside
    page = blog_page().replace(
        '<div class="post"><h2>Pool to close</h2>',
        '<div class="post has-comments"><h1>Pool to close</h1>',
    )
    doc = parse_html(page)
    assert [e.get("id") or e.get("class") for e in outermost_threads(doc.root)] == ["comments"]
    assert WithoutCommentThreads("keep_everything")(doc)
    assert STORY in doc.content()


def test_the_parsed_tree_is_not_changed():
    # a parse may be shared by several chains (Document.copy shares the tree)
    doc = parse_html(blog_page())
    copied = doc.copy()
    assert WithoutCommentThreads("keep_everything")(copied)
    assert copied.root is not doc.root
    assert len(doc.root.xpath("//li[@class='comment']")) == 40
    assert not any(block.is_content for block in doc.blocks)


def test_a_page_with_content_or_without_threads_is_left_alone():
    doc = parse_html(blog_page())
    doc.blocks[0].is_content = True
    blocks = list(doc.blocks)
    assert not WithoutCommentThreads("keep_everything")(doc)
    assert doc.blocks == blocks
    plain = parse_html(f"<html><body><p>{STORY}</p></body></html>")
    assert not WithoutCommentThreads("keep_everything")(plain)
    assert not WithoutCommentThreads("keep_everything")(parse_html(""))


def test_fewer_than_min_words_left_is_not_read():
    page = (
        "<html><body><p>Pool to close.</p><div id='comments'>"
        + "".join(comment(i) for i in range(3))
        + "</div></body></html>"
    )
    assert not WithoutCommentThreads("keep_everything")(parse_html(page))
    doc = parse_html(page)
    assert WithoutCommentThreads("keep_everything", min_words=3)(doc)
    assert doc.content().strip() == "Pool to close."


def test_any_chain_spec_reads_the_page_without_threads():
    spec = [
        "mark_everything_boilerplate",
        {"without_comment_threads": {"extractor": "keep_everything"}},
    ]
    assert STORY in extract(blog_page(), extractor=spec).text
    assert extract(blog_page(), extractor=["mark_everything_boilerplate"]).text == ""


def test_in_the_default_chain_only():
    pytest.importorskip("onnxruntime", reason="onnxruntime is not installed")
    from scrapy_boilerplate.filters import CommentSectionFilter
    from scrapy_boilerplate.filters.fallback import FallbackFilter
    from scrapy_boilerplate.neural.boosted import DominantBlock

    chain = list(get_extractor("boosted").chain)
    # after the <noscript> reading: a script-shown post is read with its markup first;
    # the dominant block is the article model's last try, the every-type model's reading
    # the chain's
    assert [type(f) for f in chain[-5:]] == [
        NoscriptContent,
        WithoutCommentThreads,
        DominantBlock,
        CommentSectionFilter,
        FallbackFilter,
    ]
    assert not any(isinstance(f, WithoutCommentThreads) for f in get_extractor("web2text").chain)


@pytest.mark.parametrize("nested", [False, True], ids=["siblings", "nested"])
def test_many_comment_sections_cost_time_linear_in_the_page(nested):
    def page(n: int) -> str:
        if nested:  # libxml2 cuts the nesting at 2048: the rest is text
            return "<html><body><h1>Pool</h1>" + '<div class="comment">a few words' * n
        return "<html><body>" + '<div class="comment"><p>a few words</p></div>' * n

    fill = WithoutCommentThreads("keep_everything", min_words=0)
    assert growth(lambda doc: fill(copy.copy(doc)), lambda n: parse_html(page(n)), 5_000) < (
        LINEAR_GROWTH_LIMIT
    )
    doc = parse_html(page(100_000))
    assert fill(doc.copy())


def test_a_huge_declaration_is_searched_once():
    ld = '<script type="application/ld+json">' + json.dumps({"x": "y " * 500_000}) + "</script>"
    assert not declares_discussion(parse_html(blog_page(head=ld)).root)
