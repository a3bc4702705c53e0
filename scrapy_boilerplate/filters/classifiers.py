"""boilerpipe's block classifiers: the decision trees, Canola, title and end-of-text finders.

The decision trees are the C4.8 trees of Kohlschütter, Fankhauser and Nejdl (WSDM 2010),
as shipped in boilerpipe 1.2; each overwrites the content flag of every block from the
block and its two neighbours (an all-zero block stands in at the ends).
"""

from __future__ import annotations

import re

from ..document import Document, Label
from ..words import java_trim, utf16_len
from .base import Filter, neighbour_values, set_flags

__all__ = [
    "ArticleMetadataFilter",
    "CanolaClassifier",
    "DensityRulesClassifier",
    "DocumentTitleMatchClassifier",
    "NumWordsRulesClassifier",
    "TerminatingBlocksFinder",
]

# Thresholds of the shipped decision trees (boilerpipe 1.2, NumWordsRulesClassifier and
# DensityRulesClassifier). Link densities are compared as Java compares float to double.
_LD_CURR = 0.333333
_LD_PREV = 0.555556


class NumWordsRulesClassifier(Filter):
    """Content if the block and its neighbours have enough words and few links.

    boilerpipe's ``NumWordsRulesClassifier`` (the tree on numbers of words).
    """

    name = "num_words_rules"

    def __call__(self, doc: Document) -> bool:
        blocks = doc.blocks
        prev_ld, curr_ld, _ = neighbour_values(blocks, "link_density")
        prev_nw, curr_nw, next_nw = neighbour_values(blocks, "num_words")
        return set_flags(
            blocks,
            [
                ((cn > 16 or nn > 15 or pn > 4) if pl <= _LD_PREV else (cn > 40 or nn > 17))
                if cl <= _LD_CURR
                else False
                for pl, cl, pn, cn, nn in zip(
                    prev_ld, curr_ld, prev_nw, curr_nw, next_nw, strict=True
                )
            ],
        )


class DensityRulesClassifier(Filter):
    """Content by text density (words per 80-column line) of the block and its neighbours.

    boilerpipe's ``DensityRulesClassifier``, used by the DefaultExtractor.
    """

    name = "density_rules"

    def __call__(self, doc: Document) -> bool:
        blocks = doc.blocks
        prev_ld, curr_ld, _ = neighbour_values(blocks, "link_density")
        prev_td, curr_td, next_td = neighbour_values(blocks, "text_density")
        return set_flags(
            blocks,
            [
                (((nt > 10 or pt > 4) if ct <= 9 else nt != 0) if pl <= _LD_PREV else nt > 11)
                if cl <= _LD_CURR
                else False
                for pl, cl, pt, ct, nt in zip(
                    prev_ld, curr_ld, prev_td, curr_td, next_td, strict=True
                )
            ],
        )


class CanolaClassifier(Filter):
    """The classifier of boilerpipe's CanolaExtractor (trained on krdwrd Canola)."""

    name = "canola"

    def __call__(self, doc: Document) -> bool:
        blocks = doc.blocks
        prev_ld, curr_ld, next_ld = neighbour_values(blocks, "link_density")
        prev_nw, curr_nw, next_nw = neighbour_values(blocks, "num_words")
        return set_flags(
            blocks,
            [
                (cl > 0 and nn > 11)
                or cn > 19
                or (nn > 6 and nl == 0 and pl == 0 and (cn > 6 or pn > 7 or nn > 19))
                for pl, cl, nl, pn, cn, nn in zip(
                    prev_ld, curr_ld, next_ld, prev_nw, curr_nw, next_nw, strict=True
                )
            ],
        )


# -- end of text ---------------------------------------------------------------------------
# boilerpipe's phrases, on the lower-cased text: at the start, after a number at the start,
# anywhere, or the whole text
_ENDS_TEXT = re.compile(
    r"^(?:comments|© reuters|please rate this|post a comment"
    r"|[0-9]+ (?:comments|users responded in)"
    r"|thanks for your comments - this feedback is now closed\Z)"
    r"|what you think\.\.\.|add your comment|add comment|reader views|have your say"
    r"|reader comments|rätta artikeln"
).search


class TerminatingBlocksFinder(Filter):
    """Labels blocks that typically end an article ("Comments", "Post a comment", ...).

    Only short blocks (fewer than 15 words) are examined. ``match_comment_link`` adds the
    rule of boilerpipe 1.3: a link-only block reading exactly "Comment" also ends the text.
    """

    name = "terminating_blocks"

    def __init__(self, match_comment_link: bool = False) -> None:
        self.match_comment_link = match_comment_link

    def __call__(self, doc: Document) -> bool:
        changed = False
        for block in doc.blocks:
            if block.num_words >= 15:
                continue
            text = java_trim(block.text)
            if len(text) < 8 and utf16_len(text) < 8:
                if self.match_comment_link and block.link_density == 1.0 and text == "Comment":
                    # boilerpipe 1.3 labels here but does not report a change (its quirk)
                    block.labels.add(Label.INDICATES_END_OF_TEXT)
                continue
            if _ENDS_TEXT(text.lower()) is not None:
                block.labels.add(Label.INDICATES_END_OF_TEXT)
                changed = True
        return changed


# -- title ---------------------------------------------------------------------------------
def _java_split(text: str, pattern: str) -> list[str]:
    """Java's ``String.split``: trailing empty strings are dropped."""
    parts = re.split(pattern, text)
    while parts and parts[-1] == "":
        parts.pop()
    return parts


def _longest_part(title: str, pattern: str, word_split: str) -> str | None:
    parts = _java_split(title, pattern)
    if len(parts) == 1:
        return None
    longest_words = 0
    longest = ""
    longest_len = 0
    for part in parts:
        if ".com" in part:
            continue
        num_words = len(_java_split(part, word_split)) if part else 1
        part_len = utf16_len(part)
        if num_words > longest_words or part_len > longest_len:
            longest_words = num_words
            longest = part
            longest_len = part_len
    return java_trim(longest) if longest else None


# Separator sets, each a regex character class with optional spaces around it.
_SEPARATORS_12 = ("[|»:]", "[|»:()]", "[|»:()\\-]", "[|»,:()\\-]")
_SEPARATORS_13 = ("[|»\\-]", *_SEPARATORS_12, "[|»,:()\\-\u00a0]")
_REMOVE_PUNCTUATION = re.compile(r"[?!.\-:]+")


class DocumentTitleMatchClassifier(Filter):
    """Labels TITLE the blocks whose text is the page title or a part of it.

    ``title=None`` uses the document's ``<title>``. ``variant="1.2"`` is boilerpipe 1.2.0
    (exact, case-sensitive matches against the title and its longest parts; every matching
    block is labelled); ``variant="1.3"`` is the later version (NBSP and apostrophes
    normalised, lower case, more candidates, punctuation-insensitive second try, first
    match only).
    """

    name = "document_title_match"

    def __init__(self, title: str | None = None, variant: str = "1.2") -> None:
        if variant not in ("1.2", "1.3"):
            raise ValueError(f"variant must be '1.2' or '1.3', not {variant!r}")
        self.title = title
        self.variant = variant

    def candidates(self, title: str | None) -> set[str] | None:
        """The set of strings a block must equal to be the title (None: no title)."""
        if title is None:
            return None
        if self.variant == "1.2":
            title = java_trim(title)
            if not title:
                return None
            found = {title}
            for sep in _SEPARATORS_12:
                # In 1.2 the word count splits on backspace characters: always one word.
                part = _longest_part(title, f"[ ]*{sep}[ ]*", "[\b]+")
                if part is not None:
                    found.add(part)
            return found
        title = java_trim(title.replace("\u00a0", " ").replace("'", "")).lower()
        if not title:
            return None
        found = {title}
        for sep in _SEPARATORS_13:
            part = _longest_part(title, f"[ ]*{sep}[ ]*", "[\b ]+")
            if part is not None:
                found.add(part)
        for pattern in (r"[ ]+[|][ ]+", r"[ ]+[\-][ ]+"):
            parts = _java_split(title, pattern)
            if len(parts) == 1:
                continue
            for part in parts:
                if ".com" not in part and len(_java_split(part, "[\b ]+")) >= 4:
                    found.add(part)
        found.add(re.sub(r" - [^\-]+$", "", title, count=1))
        found.add(re.sub(r"^[^\-]+ - ", "", title, count=1))
        return found

    def __call__(self, doc: Document) -> bool:
        candidates = self.candidates(self.title if self.title is not None else doc.title)
        if not candidates:
            return False
        if self.variant == "1.2":
            changed = False
            for block in doc.blocks:
                if java_trim(block.text) in candidates:
                    block.labels.add(Label.TITLE)
                    changed = True
            return changed
        for block in doc.blocks:
            text = java_trim(block.text.replace("\u00a0", " ").replace("'", "")).lower()
            if text in candidates or java_trim(_REMOVE_PUNCTUATION.sub("", text)) in candidates:
                block.labels.add(Label.TITLE)
                return True
        return False


# -- article metadata ----------------------------------------------------------------------
_MONTHS = (
    "Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec|January|February|March|April|May|June"
    "|July|August|September|October|November|December"
)
_METADATA_PATTERNS = (
    re.compile(rf"^[0-9 ,./]*\b({_MONTHS})?\b[0-9 ,:apm./]*([CPSDMGET]{{2,3}})?$"),
    re.compile(r"^[Bb]y "),
)


class ArticleMetadataFilter(Filter):
    """Marks short date lines and "By ..." bylines as content, labelled ARTICLE_METADATA."""

    name = "article_metadata"

    def __call__(self, doc: Document) -> bool:
        changed = False
        for block in doc.blocks:
            if block.num_words > 10:
                continue
            for pattern in _METADATA_PATTERNS:
                if pattern.search(block.text):
                    changed = True
                    block.is_content = True
                    block.labels.add(Label.ARTICLE_METADATA)
        return changed
