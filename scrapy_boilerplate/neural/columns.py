"""The names of the Web2Text feature columns (and of ours), and which of them are binary.

Block features (128 per block) and edge features (25 per pair of adjacent blocks) follow
algorithms.md 2.4-2.5; our extension columns (``extended=True``) follow them. The keyword
groups and sectioning tags that the extension columns stand for are defined here too.
"""

from __future__ import annotations

import numpy as np

__all__ = [
    "BINARY_BLOCK",
    "BINARY_EDGE",
    "BLOCK_FEATURES",
    "EDGE_FEATURES",
    "EXT_BLOCK_FEATURES",
    "EXT_EDGE_FEATURES",
    "EXT_TAGS",
    "KEYWORD_GROUPS",
    "LEAF_TAGS",
    "N_EXT_BITS",
    "PARENT_TAGS",
    "TAG_BITS",
    "binary_masks",
    "feature_names",
]

_NODE = [
    "body_percentage",
    "link_density",
    "avg_word_length",
    "has_stopword",
    "stopword_ratio",
    "log_n_characters",
    "log_punctuation_ratio",
    "has_numeric",
    "numeric_ratio",
    "log_avg_sentence_length",
    "ends_with_punctuation",
    "ends_with_question_mark",
    "contains_copyright",
    "contains_email",
    "contains_url",
    "contains_year",
    "ratio_words_with_capital",
    "ratio_words_with_capital_2",
    "ratio_words_with_capital_3",
    "contains_form_element",
]
_NODE_BINARY = {
    "has_stopword",
    "has_numeric",
    "ends_with_punctuation",
    "ends_with_question_mark",
    "contains_copyright",
    "contains_email",
    "contains_url",
    "contains_year",
    "contains_form_element",
}
# algorithms.md 2.4 C: p_tag_X (the reference lists ``ul`` twice; the second is ``nav`` here)
PARENT_TAGS = (
    "td div p tr table body ul span li blockquote b small a ol nav i form dl strong pre"
).split()
# algorithms.md 2.4 G: tag_X of the leaf
LEAF_TAGS = "a p td b li span i tr div strong em h3 h2 table h4 small sup h1 blockquote".split()

_LEAF = [
    "has_word",
    "log_n_words",
    "avg_word_length",
    "has_stopword",
    "stopword_ratio",
    "log_n_characters",
    "contains_punctuation",
    "n_punctuation",
    "log_punctuation_ratio",
    "has_numeric",
    "numeric_ratio",
    "log_avg_sentence_length",
    "has_multiple_sentences",
    "relative_position",
    "relative_position_2",
    "ends_with_punctuation",
    "ends_with_question_mark",
    "contains_copyright",
    "contains_email",
    "contains_url",
    "contains_year",
    "ratio_words_with_capital",
    "ratio_words_with_capital_2",
    "ratio_words_with_capital_3",
]
_LEAF_BINARY = {
    "has_word",
    "has_stopword",
    "contains_punctuation",
    "has_numeric",
    "has_multiple_sentences",
    "ends_with_punctuation",
    "ends_with_question_mark",
    "contains_copyright",
    "contains_email",
    "contains_url",
    "contains_year",
}

BLOCK_FEATURES: tuple[str, ...] = tuple(
    ["has_duplicate", "has_10_duplicates", "n_same_class_path"]
    + _LEAF
    + ["has_p"]
    + ["p_" + n for n in _NODE]
    + ["p_tag_" + t for t in PARENT_TAGS]
    + ["has_gp"]
    + ["gp_" + n for n in _NODE]
    + ["root_" + n for n in _NODE]
    + ["tag_" + t for t in LEAF_TAGS]
)
EDGE_FEATURES: tuple[str, ...] = tuple(
    ["tree_distance_2", "tree_distance_3", "tree_distance_4", "tree_distance_more", "block_break"]
    + ["common_ancestor_" + n for n in _NODE]
)
assert len(BLOCK_FEATURES) == 128 and len(EDGE_FEATURES) == 25

#: columns that are binary (+-1 or 1/0): never standardised
BINARY_BLOCK = np.array(
    [
        name in ("has_duplicate", "has_10_duplicates", "has_p", "has_gp")
        or name.startswith(("p_tag_", "tag_"))
        or (name in _LEAF_BINARY and not name.startswith(("p_", "gp_", "root_")))
        or (name.split("_", 1)[0] in ("p", "gp", "root") and name.split("_", 1)[1] in _NODE_BINARY)
        for name in BLOCK_FEATURES
    ],
    dtype=bool,
)
BINARY_EDGE = np.array(
    [
        i < 5 or name[len("common_ancestor_") :] in _NODE_BINARY
        for i, name in enumerate(EDGE_FEATURES)
    ],
    dtype=bool,
)

#: a bit per tag of PARENT_TAGS and LEAF_TAGS
TAG_BITS = {t: 1 << i for i, t in enumerate(sorted(set(PARENT_TAGS) | set(LEAF_TAGS)))}


# --- extension columns (ours, not Web2Text's; used when ``extended=True``) -------------
# Words in the class and id attributes of a block's element and its ancestors, and some
# HTML5 sectioning tags above it: the signals rule-based extractors (readability,
# trafilatura) lean on, which Web2Text's features do not see.
# Each group is a list of literals, matched in the lowercased string; a literal starting
# with "^" must not follow a letter a-z, one ending with "$" must not precede one (so "ad"
# is not found in "header" nor "tag" in "stage"). The order is the matching order.
KEYWORD_GROUPS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("nav", ("nav", "menu", "breadcrumb", "pagination", "pager", "toolbar", "skip")),
    ("footer", ("foot", "copyright", "legal", "disclaimer")),
    ("header", ("header", "masthead", "topbar", "logo")),
    ("sidebar", ("sidebar", "aside", "widget", "rail")),
    ("comment", ("comment", "reply", "respond", "disqus", "discussion")),
    ("share", ("share", "sharing", "social", "facebook", "twitter", "print")),
    (
        "related",
        (
            "related",
            "recommend",
            "popular",
            "trending",
            "teaser",
            "suggest",
            "read-next",
            "readnext",
            "more-stories",
            "morestories",
        ),
    ),
    ("ad", ("^ads$", "^ad$", "advert", "sponsor", "promo", "banner")),
    (
        "content",
        ("article", "content", "post", "entry", "story", "body", "main", "text", "prose"),
    ),
    (
        "meta",
        ("byline", "author", "date", "time", "tags$", "tag$", "categor", "caption", "credit"),
    ),
    (
        "signup",
        (
            "subscri",
            "newsletter",
            "signup",
            "sign-up",
            "login",
            "cookie",
            "consent",
            "modal",
            "popup",
        ),
    ),
)
EXT_TAGS = ("nav", "footer", "header", "aside", "article", "main", "form", "figure")


EXT_BLOCK_FEATURES: tuple[str, ...] = tuple(
    [f"anc_class_{n}" for n, _ in KEYWORD_GROUPS]
    + ["anc_hidden"]
    + [f"anc_tag_{t}" for t in EXT_TAGS]
    + ["log_depth", "log_parent_blocks", "offset_from_longest", "words_vs_longest"]
)
EXT_EDGE_FEATURES: tuple[str, ...] = tuple(
    [f"differ_class_{n}" for n, _ in KEYWORD_GROUPS]
    + ["differ_hidden"]
    + [f"differ_tag_{t}" for t in EXT_TAGS]
)
N_EXT_BITS = len(KEYWORD_GROUPS) + 1 + len(EXT_TAGS)


def feature_names(extended: bool = False) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The block and edge column names (Web2Text's, plus ours when ``extended``)."""
    if extended:
        return BLOCK_FEATURES + EXT_BLOCK_FEATURES, EDGE_FEATURES + EXT_EDGE_FEATURES
    return BLOCK_FEATURES, EDGE_FEATURES


def binary_masks(extended: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """Which block and edge columns are binary (never standardised)."""
    if not extended:
        return BINARY_BLOCK, BINARY_EDGE
    eb = np.array([n.startswith(("anc_", "differ_")) for n in EXT_BLOCK_FEATURES], dtype=bool)
    ee = np.ones(len(EXT_EDGE_FEATURES), dtype=bool)
    return np.concatenate((BINARY_BLOCK, eb)), np.concatenate((BINARY_EDGE, ee))
