"""CommentSectionFilter (``filters/comments.py``): readers' comment threads leave the content,
article text stays."""

import gzip
from pathlib import Path

import pytest

from scrapy_boilerplate import FILTERS, Label, extract, get_extractor
from scrapy_boilerplate.filters import CommentSectionFilter
from scrapy_boilerplate.filters.comments import is_comment_section
from scrapy_boilerplate.parse import parse_html

GOLDEN = Path(__file__).parents[1] / "golden" / "pages"

ARTICLE = (
    "<h1>Bridge to reopen in spring</h1>"
    "<p>The council approved the repair of the old bridge on Tuesday, after engineers "
    "found cracks in two of its piers during the autumn inspection of the town centre.</p>"
    "<p>Work starts next month and should take about twelve weeks, the council said, "
    "with a temporary footbridge for pedestrians and cyclists in the meantime.</p>"
)
COMMENT = (
    "<p>I cross that bridge every morning and I am glad they finally decided to fix it, "
    "although twelve weeks sounds optimistic to me given the state of the piers.</p>"
)


def page(body: str) -> str:
    return f"<html><head><title>Bridge</title></head><body>{body}</body></html>"


def everything_then_comments(html: str, **params):
    """All blocks content, then the filter: what it drops is what it found."""
    doc = parse_html(html)
    for block in doc.blocks:
        block.is_content = True
    changed = CommentSectionFilter(**params)(doc)
    return doc, changed


def content_text(doc) -> str:
    return " ".join(b.text for b in doc.blocks if b.is_content)


@pytest.mark.parametrize(
    "container",
    [
        '<ol class="commentlist"><li class="comment even">{}</li></ol>',  # WordPress
        '<div id="comments"><div class="comment-body">{}</div></div>',  # Movable Type
        '<div id="disqus_thread">{}</div>',  # Disqus
        '<section class="article-comments">{}</section>',
        '<div class="entry"><div class="commentText">{}</div></div>',  # camelCase
        '<div id="respond">{}</div>',  # the comment form
        '<ul class="replies"><li>{}</li></ul>',
    ],
)
def test_a_comment_thread_after_the_article_is_dropped_and_labelled(container):
    doc, changed = everything_then_comments(page(ARTICLE + container.format(COMMENT)))
    assert changed
    text = content_text(doc)
    assert "engineers found cracks" in text
    assert "temporary footbridge" in text
    assert "I cross that bridge" not in text
    dropped = [b for b in doc.blocks if not b.is_content]
    assert dropped and all(b.has_label(Label.USER_COMMENTS) for b in dropped)


@pytest.mark.parametrize(
    "wrapper",
    [
        '<article class="post has-comments">{}</article>',  # holds the article itself
        '<div class="comments-enabled">{}</div>',
    ],
)
def test_a_wrapper_that_holds_the_article_is_not_a_comment_section(wrapper):
    doc, changed = everything_then_comments(page(wrapper.format(ARTICLE)))
    assert not changed
    assert all(b.is_content for b in doc.blocks)


def test_the_share_guard_decides_between_thread_and_wrapper():
    # the comment section holds 3 of 4 paragraphs' words: above the default half it is
    # taken for the page's own content; a higher max_share drops it anyway
    html = page(
        ARTICLE[: ARTICLE.index("<p>Work")] + '<div class="comments-area">' + COMMENT * 3 + "</div>"
    )
    doc, changed = everything_then_comments(html)
    assert not changed
    doc, changed = everything_then_comments(html, max_share=0.9)
    assert changed
    assert "I cross that bridge" not in content_text(doc)


@pytest.mark.parametrize("thread_id", ["comments", "disqus_thread", "Comments"])
def test_a_thread_the_comment_system_names_is_dropped_whatever_its_share(thread_id):
    # WordPress's <div id="comments">, Disqus's <div id="disqus_thread">: a long thread
    # under a short story is still a thread
    html = page(
        ARTICLE[: ARTICLE.index("<p>Work")] + f'<div id="{thread_id}">' + COMMENT * 3 + "</div>"
    )
    doc, changed = everything_then_comments(html)
    assert changed
    assert "I cross that bridge" not in content_text(doc)
    assert "engineers found cracks" in content_text(doc)
    # without thread ids, the share guard decides alone
    doc, changed = everything_then_comments(html, thread_ids=())
    assert not changed


def test_one_comment_of_a_thread_is_dropped_whatever_its_share():
    # WordPress: <ol class="commentlist"><li class="comment"><div id="div-comment-6310">:
    # one long comment (the post's author answering) holds most of the content the
    # labeler kept; it lies inside another comment section, so it is no article wrapper
    html = page(
        ARTICLE[: ARTICLE.index("<p>Work")]
        + '<ol class="commentlist"><li class="comment">'
        + '<div id="div-comment-6310">'
        + COMMENT * 3
        + "</div></li></ol>"
    )
    doc, changed = everything_then_comments(html)
    assert changed
    assert "I cross that bridge" not in content_text(doc)
    assert "engineers found cracks" in content_text(doc)
    # without the rule, the share guard keeps it (three of four paragraphs' words)
    doc, changed = everything_then_comments(html, drop_nested=False)
    assert not changed


def test_a_wrapper_with_a_thread_name_in_its_class_keeps_the_share_guard():
    # forum software names each post's body "reply" or "comment": the page's content
    html = page('<div class="js-replyNewMessageContainer">' + ARTICLE + COMMENT + "</div>")
    doc, changed = everything_then_comments(html)
    assert not changed


def test_with_wrapper_holds_heading_a_large_thread_without_the_headline_is_dropped():
    # a long thread under a short story (Slashdot): above the share, but the section does
    # not hold the page's <h1>, so it is not the story's wrapper
    html = page(
        ARTICLE[: ARTICLE.index("<p>Work")] + '<div id="comments">' + COMMENT * 3 + "</div>"
    )
    doc, changed = everything_then_comments(html, wrapper_holds_heading=True)
    assert changed
    assert "I cross that bridge" not in content_text(doc)
    assert "engineers found cracks" in content_text(doc)
    # a wrapper that holds the headline stays, whatever it is called
    wrapped = page('<article class="post has-comments">' + ARTICLE + "</article>")
    doc, changed = everything_then_comments(wrapped, wrapper_holds_heading=True)
    assert not changed and all(b.is_content for b in doc.blocks)


@pytest.mark.parametrize(
    "attributes",
    [
        'class="commentary"',  # an opinion column, not readers' comments
        'class="commented"',
        'id="recommendations"',
        'class="f_comment_annotation_on"',  # but on <body> only, see below
    ],
)
def test_names_that_are_not_comment_sections(attributes):
    doc = parse_html(f"<div {attributes}><p>text</p></div>")
    div = doc.root.find(".//div")
    if "f_comment" in attributes:
        assert is_comment_section(div)  # a div named so is taken for one ...
        body = parse_html(f"<body {attributes}><p>text</p></body>").root.find(".//body")
        assert not is_comment_section(body)  # ... the page's <body> never is
    else:
        assert not is_comment_section(div)


def test_blocks_already_boilerplate_stay_unlabelled():
    doc = parse_html(page(ARTICLE + '<div id="comments">' + COMMENT + "</div>"))
    for block in doc.blocks:
        block.is_content = "bridge on Tuesday" in block.text
    assert not CommentSectionFilter()(doc)
    assert not any(b.has_label(Label.USER_COMMENTS) for b in doc.blocks)


def test_max_share_is_checked():
    with pytest.raises(ValueError):
        CommentSectionFilter(max_share=1.5)


def test_it_is_registered_and_usable_in_any_chain():
    assert FILTERS["comment_sections"] is CommentSectionFilter
    assert FILTERS["CommentSectionFilter"] is CommentSectionFilter
    html = page(ARTICLE + '<div id="comments">' + COMMENT + "</div>")
    kept = extract(html, extractor="keep_everything").text
    assert "I cross that bridge" in kept
    dropped = extract(html, extractor=["keep_everything", "comment_sections"]).text
    assert "I cross that bridge" not in dropped
    assert "temporary footbridge" in dropped


def test_the_web2text_extractor_drops_the_comments_its_network_keeps():
    # A List Apart article (wcxb-dev 0363, CC-BY-4.0, a golden fixture): the network
    # labels a reader's comment under the article as content; its container names it
    pytest.importorskip("onnxruntime", reason="onnxruntime is not installed")
    html = gzip.decompress((GOLDEN / "wcxb-dev--0363.html.gz").read_bytes()).decode("utf-8")
    comment = "how the designer, Kevin, here at Overit Media"
    assert comment in get_extractor([{"web2text": {"drop_comments": False}}]).extract(html).text
    result = extract(html, extractor="web2text")
    assert comment not in result.text
    assert "typography" in result.text  # the article stays
    dropped = [b for b in result.blocks if comment in b.text]
    assert dropped and dropped[0].has_label(Label.USER_COMMENTS)


@pytest.mark.parametrize("depth", [2_000, 100_000])
def test_a_comment_section_nested_deep(depth):
    html = page(
        ARTICLE + '<div id="comments">' + "<div>" * depth + COMMENT + "</div>" * depth + "</div>"
    )
    result = extract(html, extractor=["keep_everything", "comment_sections"])
    assert "temporary footbridge" in result.text
    assert "I cross that bridge" not in result.text
    if depth < 2048:  # within libxml2's nesting limit the comment is there to be dropped
        assert "I cross that bridge" in extract(html, extractor="keep_everything").text


FORUM_LD = (
    '<script type="application/ld+json">{"@context": "https://schema.org", '
    '"@type": "DiscussionForumPosting", "headline": "Bridge to reopen"}</script>'
)


@pytest.mark.parametrize(
    "declaration",
    [
        FORUM_LD,  # JSON-LD, as XenForo and Discourse declare a thread
        '<div itemscope itemtype="https://schema.org/QAPage"></div>',  # microdata
    ],
    ids=["json-ld", "microdata"],
)
def test_a_page_that_declares_a_discussion_keeps_its_threads(declaration):
    # on a forum thread the posts are the content, whatever their containers are named
    posts = f'<div class="message-replies">{COMMENT}</div>'
    doc, changed = everything_then_comments(page(declaration + ARTICLE + posts))
    assert not changed
    assert "I cross that bridge" in content_text(doc)
    doc, changed = everything_then_comments(
        page(declaration + ARTICLE + posts), keep_discussions=False
    )
    assert changed
    assert "I cross that bridge" not in content_text(doc)


def test_an_article_that_declares_nothing_of_the_kind_loses_its_threads():
    article_ld = FORUM_LD.replace("DiscussionForumPosting", "NewsArticle")
    thread = f'<div id="comments">{COMMENT * 3}</div>'
    doc, changed = everything_then_comments(page(article_ld + ARTICLE + thread))
    assert changed
    assert "I cross that bridge" not in content_text(doc)
