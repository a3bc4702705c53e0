"""Readers' comments as their own field: the page's comment threads (found by their
containers' names), without reply forms, "Reply" links or the article; off by default,
"" when the page has none."""

from __future__ import annotations

import json

import pytest

from scrapy_boilerplate import extract
from scrapy_boilerplate.cli import main

ARTICLE = (
    "<article><h1>Storm hits the coast</h1><p>A powerful storm hit the northern coast on "
    "Tuesday night, bringing heavy rain and winds of more than a hundred kilometres an hour "
    "to several towns along the shore.</p><p>Emergency services said hundreds of homes lost "
    "power, and several roads were closed because of fallen trees.</p></article>"
)
THREAD = (
    '<div id="comments"><h3>2 comments</h3><ol class="commentlist">'
    '<li class="comment"><p>Ann: We lost power for two days in our street, and nobody '
    'came to fix the line.</p><a href="#reply-1">Reply</a></li>'
    '<li class="comment"><p>Bob: Same here, trees came down on every road out of '
    "town.</p></li></ol>"
    '<div id="respond"><h3>Leave a Reply</h3><p>Your email address will not be '
    "published. Required fields are marked.</p><form><label>Name</label>"
    "<textarea>Write your comment here</textarea></form></div></div>"
)
ANN = "Ann: We lost power for two days in our street, and nobody came to fix the line."
BOB = "Bob: Same here, trees came down on every road out of town."


def page(body: str) -> str:
    return f"<html><head><title>Storm</title></head><body>{body}</body></html>"


def test_comments_are_off_by_default():
    result = extract(page(ARTICLE + THREAD))
    assert result.comments is None
    assert "comments" not in result.to_dict()


@pytest.mark.parametrize("extractor", ["article", "default", "keep_everything", "web2text"])
def test_the_thread_is_found_whatever_the_chain_did_with_its_blocks(extractor):
    # boilerpipe's `article` fuses or drops the thread's blocks; web2text's last step
    # labels them comments: the field reads the blocks as parsed
    result = extract(page(ARTICLE + THREAD), extractor=extractor, comments=True)
    assert result.comments == f"2 comments\n{ANN}\n{BOB}"
    assert "storm hit" not in result.comments


def test_reply_forms_and_reply_links_are_not_comments():
    comments = extract(page(ARTICLE + THREAD), comments=True).comments
    assert "Leave a Reply" not in comments and "email address" not in comments
    assert "Reply" not in comments.replace("Leave a Reply", "")


def test_a_page_without_a_thread_has_empty_comments():
    result = extract(page(ARTICLE), comments=True)
    assert result.comments == ""
    assert result.to_dict()["comments"] == ""


def test_a_thread_of_a_few_words_is_no_thread():
    stub = '<div id="comments"><h3>0 comments</h3><p>Be the first to comment.</p></div>'
    assert extract(page(ARTICLE + stub), comments=True).comments == ""


def test_an_article_wrapped_in_a_comment_named_element_is_not_a_comment():
    wrapped = f'<div class="post has-comments comments-open">{ARTICLE}</div>'
    assert extract(page(wrapped), comments=True).comments == ""
    # ...while a thread inside that wrapper still is one
    inner = f'<div class="post has-comments comments-open">{ARTICLE}{THREAD}</div>'
    assert ANN in extract(page(inner), comments=True).comments


SHORT_STORY = (
    "<h1>Council closes the old bridge</h1><p>The council closed the old bridge on Tuesday "
    "for repairs that will last until the spring, the mayor said.</p>"
)
LONG_THREAD = "".join(
    f'<li class="comment"><p>Reader {i}: I cross that bridge every day and the repairs were '
    "long overdue, but the detour through the town centre will add twenty minutes to my "
    "drive each morning.</p></li>"
    for i in range(80)
)


def test_a_story_read_again_without_its_thread_keeps_the_thread_as_comments():
    # the default finds nothing beside 80 long comments, reads the page again without
    # them (a copy of the tree) and keeps the story; the comments are the page's own
    html = page(f'<div class="post">{SHORT_STORY}</div><ol class="commentlist">{LONG_THREAD}</ol>')
    result = extract(html, comments=True)
    assert len(result.blocks) == 2  # (the copy's blocks: the page was read again)
    assert result.text.startswith("Council closes the old bridge")
    assert result.comments.startswith("Reader 0: I cross that bridge")
    assert result.comments.count("Reader") == 80
    assert "council closed" not in result.comments


def test_on_a_page_read_again_an_article_wrapper_is_still_no_thread():
    # the wrapper is named like a comment section and holds the story: read again, its
    # thread is left out of the copy, and the story's words, matched by their text,
    # still mark the wrapper as the article's
    wrapped = (
        f'<div class="post has-comments">{SHORT_STORY}'
        f'<ol class="commentlist">{LONG_THREAD}</ol></div>'
    )
    result = extract(page(wrapped), comments=True)
    assert len(result.blocks) == 2
    assert result.comments.count("Reader") == 80
    assert "council closed" not in result.comments


@pytest.mark.parametrize("body", [b"", b"\x00\x01\x02\xff" * 500, "<<<>>>", "<p>x</p>"])
def test_bad_input_gives_empty_comments(body):
    assert extract(body, comments=True).comments == ""


def test_nested_comment_sections_are_one_thread():
    # every level names a comment section (replies inside replies): the outermost one
    # is the thread, and each ancestor is walked once
    depth = 2_000
    replies = "".join(f'<div class="comment"><p>Reply {i}</p>' for i in range(depth))
    html = replies + f"<p>{ANN}</p>" + "</div>" * depth
    comments = extract(page(ARTICLE + html), comments=True).comments
    assert comments.startswith("Reply 0\nReply 1\n") and comments.endswith(ANN)


def test_a_page_nested_past_the_parsers_limit_gives_what_was_read():
    depth = 100_000
    html = '<div class="comment">' * depth + f"<p>{ANN}</p>" + "</div>" * depth
    result = extract(page(ARTICLE + html), comments=True)
    assert result.comments == ""  # the thread's text lay below the cut
    # the story above the cut is read (its 4-word headline follows the default's
    # convention: a short block before the first long one is not text)
    assert result.text.startswith("A powerful storm hit the northern coast")


def test_the_command_line_adds_comments_to_json(tmp_path, capsys):
    path = tmp_path / "storm.html"
    path.write_text(page(ARTICLE + THREAD), encoding="utf-8")
    assert main(["extract", "--format", "jsonl", "--comments", str(path)]) == 0
    line = json.loads(capsys.readouterr().out)
    assert line["comments"].endswith(BOB)
    assert main(["extract", "--format", "jsonl", str(path)]) == 0
    assert "comments" not in json.loads(capsys.readouterr().out)


def test_whether_a_page_declares_a_discussion_is_found_once_and_kept():
    from scrapy_boilerplate.filters.comments import page_declares_discussion
    from scrapy_boilerplate.parse import parse_html

    # markup that names neither schema.org type cannot declare one: parsing says so
    plain = parse_html("<html><body><p>A story with no thread.</p></body></html>")
    assert plain.discussion_declared is False and not page_declares_discussion(plain)
    question = parse_html(
        '<html><head><script type="application/ld+json">{"@type": "QAPage"}</script></head>'
        "<body><p>How do I keep my bread fresh?</p></body></html>"
    )
    assert question.discussion_declared is None  # named: the tree decides, once
    assert page_declares_discussion(question) and question.discussion_declared is True
    assert question.copy().discussion_declared is True
    # a page that writes the name in its text declares nothing
    named = parse_html("<p>Mark forum threads up as DiscussionForumPosting.</p>")
    assert named.discussion_declared is None and not page_declares_discussion(named)
