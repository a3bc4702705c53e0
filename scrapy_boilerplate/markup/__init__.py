"""The main content with its structure: a clean tree of the kept elements, and its
Markdown and HTML renderings.

* ``tree``: the content blocks' DOM elements, copied into a new tree of a few safe tags
  (headings, paragraphs, lists, tables, quotes, code, emphasis, links, images, figures),
  links made absolute;
* ``markdown``: that tree as CommonMark (tables as GFM pipe tables);
* ``html``: that tree as an HTML fragment, sanitised again by nh3.
"""

from .html import render_html
from .markdown import render_markdown
from .tree import content_tree

__all__ = ["content_tree", "render_html", "render_markdown"]
