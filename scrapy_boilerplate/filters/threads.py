"""The page without its readers' threads, for pages on which a chain found no content.

A short story under a long discussion (a blog post with hundreds of comments, a
Slashdot story) can drown: the comment threads hold nearly all of the page's text, so a
labeler that reads the page as a whole finds the story too small to be the article, and
the thread is not the article either. The comment-section filter would drop the thread
anyway; this filter drops it first, from a copy of the tree, and runs a chain again on
what is left, only where the chain before it left no block content.

A page that declares itself a discussion (schema.org's ``DiscussionForumPosting`` or
``QAPage``, in JSON-LD or microdata) is left alone: there the threads are the content.
"""

from __future__ import annotations

import copy
from typing import Any

from .comments import declares_discussion, heading_ancestors, is_comment_section
from .reread import ReadAgain

__all__ = ["WithoutCommentThreads", "outermost_threads"]


class WithoutCommentThreads(ReadAgain):
    """If no block is content, drop the page's comment sections (the outermost elements
    :func:`~scrapy_boilerplate.filters.comments.is_comment_section` accepts, but not one
    that holds one of the page's first ``<h1>`` elements: an article wrapped in
    ``<div class="post has-comments">``) from a copy of the tree, segment it again, and
    run the chain of ``extractor`` (a name, a chain spec, or a filter) on the new blocks,
    if they hold at least ``min_words`` words. Pages that declare a discussion
    (:func:`declares_discussion`) are left alone.
    """

    name = "without_comment_threads"

    def changed_copy(self, root: Any) -> Any | None:
        """A copy of the tree without its comment threads (None: no threads to drop, or
        a page that declares a discussion)."""
        if declares_discussion(root) or not outermost_threads(root):
            return None
        # dropped from a copy (the parse may be shared), found again there
        shown = copy.deepcopy(root)
        for element in outermost_threads(shown):
            element.drop_tree()  # its tail (text after it) stays
        return shown


def outermost_threads(root: Any) -> list[Any]:
    """The outermost comment sections of the tree, in document order, less those that
    hold one of its first ``<h1>`` elements (``heading_ancestors``). One walk that does not
    enter a section it takes (linear in the tree's size, whatever its depth)."""
    headed = heading_ancestors(root)
    found: list[Any] = []
    stack = [root]
    while stack:
        node = stack.pop()
        if not isinstance(node.tag, str):
            continue  # comments and processing instructions
        if node not in headed and is_comment_section(node):
            found.append(node)
            continue
        stack.extend(reversed(node))
    return found
