"""The boosted labeler: gradient-boosted trees over each block and the page around it.

The model (``boosted.onnx`` and ``boosted.json`` in a model directory; the shipped one is
in ``scrapy_boilerplate/neural/models/``) is a LightGBM tree ensemble exported to ONNX's
``TreeEnsembleClassifier``, run with onnxruntime. It reads
:data:`~scrapy_boilerplate.neural.boosted_features.BOOSTED_FEATURES` (Web2Text's block
features and the page's context around each block) and gives each block's content
probability. Decoding follows the runs of consecutive blocks the trees decide: a run
whose blocks all reach the model's ``grow_threshold`` (0.4) is content when one of them
reaches its ``threshold`` (0.55): a paragraph the trees doubt beside paragraphs they
are sure of is kept, a lone doubtful block is not (cross-validated by site, every seed
of the trees gains by it: docs/neural.md).

Blocks of at most ``short_words`` words (4 in the shipped model: six in ten of a page's
blocks, bylines, labels, menu items, numbers) carry little text and were left out of
training; each takes the decision of the longer blocks around it: content if the nearest
longer blocks before and after it are both content (never before the first longer block
or after the last). This cuts the trees' work by more than half and changed no
cross-validated mean by more than 0.001 (docs/neural.md).

Two rules follow the trees: a block whose every word is a link, inside an element named
or tagged as navigation or footer (``class="nav"``, ``<footer>``, ...), is boilerplate.
The trees mostly know it, but on a small page whose footer follows the story they can
hesitate; on the data sets the rule changes no figure by more than 0.001. And a block
inside a ``<footer>`` element (HTML5's footer of a page or section: who wrote it,
copyright, related links) is not content, unless nothing else on the page is
(cross-validated by site: wcxb-dev +0.0009, trafilatura-eval +0.0003, no set lower;
docs/neural.md). Before the runs are read, the block that holds the page's own summary
(its meta description: the story's first paragraph or standfirst) counts as a seed if
the trees give it at least 0.2 (:func:`seeded_by_summary`; cross-validated, every
training set at least as high, trafilatura-eval +0.002; docs/neural.md).

onnxruntime is imported, and the session created, on first use: one session per process
per model directory (a fork gets its own); the filter itself pickles as plain data.
Training: :mod:`scrapy_boilerplate.training.boosted`; the model card says on what and how
well.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from operator import attrgetter
from pathlib import Path
from typing import Any, NamedTuple

import numpy as np

from ..document import Document
from ..errors import ModelUnavailableError
from ..filters.base import Chain, Filter, set_flags
from ..filters.comments import page_declares_discussion
from .boosted_features import BOOSTED_FEATURES, boosted_features
from .filter import ProbabilityLabeler, labeler_chain
from .model import (
    CHUNK_ROWS,
    DEFAULT_MODEL_DIR,
    inference_session,
    process_model,
    read_model_meta,
)
from .summary import Summary, page_summary

__all__ = [
    "BOOSTED_FILE",
    "BOOSTED_META",
    "DISCUSSIONS_MODEL_DIR",
    "FAVOR",
    "PAGES",
    "BlockScores",
    "BoostedLabeler",
    "BoostedModel",
    "DominantBlock",
    "SUMMARY_FLOOR",
    "HEADING_COLUMN",
    "boosted",
    "content_runs",
    "decided_by_trees",
    "get_boosted_model",
    "in_footer",
    "navigation_links",
    "outside_footers",
    "raised_to_seed",
    "seeded_by_summary",
    "short_block_decisions",
]

BOOSTED_FILE = "boosted.onnx"
BOOSTED_META = "boosted.json"
_RETRAIN = "scrapy-boilerplate train --model boosted"
#: the shipped model for pages that declare a discussion: the same columns, trees trained
#: on every WCXB page type (docs/neural.md, "Discussions")
DISCUSSIONS_MODEL_DIR = DEFAULT_MODEL_DIR / "discussions"

_models: dict[tuple[int, str, int], BoostedModel] = {}
_NUM_WORDS = attrgetter("num_words")
#: columns that say a block lies in navigation or a footer (by class / id words or tag)
_NAVIGATION = [
    BOOSTED_FEATURES.index(name)
    for name in ("anc_class_nav", "anc_class_footer", "anc_tag_nav", "anc_tag_footer")
]
_LINK_DENSITY = BOOSTED_FEATURES.index("link_density")
#: the column that says a block lies inside a ``<footer>`` element (the tag, not a class)
_FOOTER_TAG = BOOSTED_FEATURES.index("anc_tag_footer")
#: the column that says a block is a heading (``short_headings`` reads it)
HEADING_COLUMN = BOOSTED_FEATURES.index("label_heading")
#: the probability at which the block holding the page's own summary seeds a run (0.4 and
#: 0 cross-validated lower than 0.2; docs/neural.md)
SUMMARY_FLOOR = 0.2
#: the ``pages`` a labeler is told it reads: ``"articles"`` (news, blogs: the article
#: model, the every-type model on pages that declare a discussion) or ``"any"`` (every
#: page by the every-type model: forums, listings, shops, documentation as well)
PAGES = ("articles", "any")


class BoostedModel:
    """One model directory's tree ensemble, threshold and short-block bound."""

    def __init__(self, model_dir: str | os.PathLike[str], threads: int = 1) -> None:
        self.model_dir = Path(model_dir)
        meta_path, onnx_path = self.model_dir / BOOSTED_META, self.model_dir / BOOSTED_FILE
        meta = read_model_meta("boosted", meta_path, onnx_path)
        try:
            self.threshold = float(meta["threshold"])
            # (a model without it decides by its threshold alone)
            self.grow_threshold = float(meta.get("grow_threshold", self.threshold))
            self.short_words = int(meta["short_words"])
            self.short_headings = bool(meta.get("short_headings", False))
            names = list(meta["features"])
        except (ValueError, KeyError, TypeError) as exc:
            raise ModelUnavailableError(f"cannot read {meta_path}: {exc}") from exc
        if names != list(BOOSTED_FEATURES):
            raise ModelUnavailableError(
                f"{meta_path}: the model was trained on other features than this version "
                f"computes; retrain it ({_RETRAIN})"
            )
        self.meta = meta
        self.session = inference_session(onnx_path, threads, "boosted")
        self.input = self.session.get_inputs()[0].name
        outputs = [o.name for o in self.session.get_outputs()]
        if "probabilities" not in outputs:
            raise ModelUnavailableError(f"{onnx_path}: no 'probabilities' output")
        self.output = ["probabilities"]

    def content_probability(
        self, features: np.ndarray, rows: np.ndarray | None = None
    ) -> np.ndarray:
        """The content probability of each of ``rows`` (indices; None: every row) of
        ``features`` (rows of :data:`BOOSTED_FEATURES`)."""
        if rows is None:
            rows = np.arange(len(features))
        out = np.zeros(len(rows), np.float32)
        # trees see one row at a time: the rows go in chunks, each copied alone (a page of
        # 50,000 blocks holds no second copy of its features)
        for start in range(0, len(rows), CHUNK_ROWS):
            chunk = np.asarray(features[rows[start : start + CHUNK_ROWS]], np.float32)
            (probabilities,) = self.session.run(self.output, {self.input: chunk})
            out[start : start + len(chunk)] = probabilities[:, 1]
        return out


def get_boosted_model(
    model_dir: str | os.PathLike[str] | None = None, threads: int = 1
) -> BoostedModel:
    """The process-wide model for a directory (the shipped one by default), loaded once."""
    return process_model(_models, BoostedModel, model_dir, threads)


def decided_by_trees(
    words: np.ndarray, features: np.ndarray, short_words: int, short_headings: bool = False
) -> np.ndarray:
    """The blocks the trees decide: those of more than ``short_words`` words (and, with
    ``short_headings``, every heading); all of them on a page of short blocks only.
    ``features``: the blocks' rows of :data:`BOOSTED_FEATURES`, or only their
    ``label_heading`` column (1-D)."""
    long = words > short_words
    if short_headings:
        headings = features if features.ndim == 1 else features[:, HEADING_COLUMN]
        long |= headings > 0
    if not long.any():
        long[:] = True
    return long


def content_runs(
    probability: np.ndarray,
    threshold: float,
    grow_threshold: float,
    excluded: np.ndarray,
    breaks: np.ndarray | None = None,
) -> np.ndarray:
    """The decisions of the blocks the trees decide, in page order, from their content
    ``probability``: each maximal run of consecutive blocks at ``grow_threshold`` or
    more (none of them ``excluded``) is content if one of its blocks reaches
    ``threshold``; a ``grow_threshold`` at or above ``threshold`` is a plain threshold.
    ``breaks`` (one per pair of consecutive blocks; None: none) ends a run between
    blocks ``k`` and ``k + 1`` where ``breaks[k]`` (decoding experiments cut runs so)."""
    grow_threshold = min(grow_threshold, threshold)
    candidate = (probability >= grow_threshold) & ~excluded
    if not candidate.any():
        return candidate
    # number the runs: a new run starts at each candidate after a non-candidate (or a break)
    after = ~np.concatenate(([False], candidate[:-1]))
    if breaks is not None:
        after |= np.concatenate(([False], breaks))
    starts = candidate & after
    run = np.cumsum(starts) - 1
    # the runs holding a block at the threshold (run is -1 only before the first run)
    seeded = np.bincount(run[candidate], probability[candidate] >= threshold) > 0
    return candidate & seeded[np.maximum(run, 0)]


def outside_footers(content: np.ndarray, footer: np.ndarray) -> np.ndarray:
    """``content`` without the blocks inside a ``<footer>`` element (``footer``), unless
    no block would be left: a page whose story a ``<footer>`` holds keeps it."""
    kept = content & ~footer
    return kept if kept.any() else content


def short_block_decisions(content: np.ndarray, long: np.ndarray) -> np.ndarray:
    """The decisions of every block, given those of the long blocks (``content`` where
    ``long``): a short block is content if the nearest long blocks before and after it
    are both content; one before the first long block or after the last is not."""
    idx = np.flatnonzero(long)
    if len(idx) == 0 or len(idx) == len(long):
        return content
    decided = content[idx]
    # position of each block among the long ones: idx[pos - 1] < i <= idx[pos]
    pos = np.searchsorted(idx, np.arange(len(long)))
    before = (pos > 0) & decided[np.maximum(pos - 1, 0)]
    after = (pos < len(idx)) & decided[np.minimum(pos, len(idx) - 1)]
    return np.where(long, content, before & after)


class BoostedLabeler(ProbabilityLabeler):
    """Label every block content / boilerplate with the boosted trees.

    ``model_dir``: a directory with ``boosted.onnx`` and ``boosted.json`` (None: the
    shipped model). ``threshold``: the content probability that makes a run of blocks
    content (None: the model's); ``grow_threshold``: the probability each block of such
    a run needs (None: the model's; at most ``threshold``; :func:`content_runs`).
    ``threads``: onnxruntime intra-op threads. ``drop_footers``: blocks inside a
    ``<footer>`` element are not content (:func:`outside_footers`). ``seed_summary``:
    the block holding the page's meta description seeds a run where the trees give it
    :data:`SUMMARY_FLOOR` or more (:func:`seeded_by_summary`).

    ``discussions``: a page that declares itself a discussion (schema.org's
    ``DiscussionForumPosting`` or ``QAPage``: a forum thread, a question and its answers;
    :func:`~scrapy_boilerplate.filters.comments.page_declares_discussion`) is read by the
    discussions model, trees trained on pages of every kind, forums among them, where
    the default's learned from articles only (cross-validated by site: wcxb-dev's
    declared forums 0.654 -> 0.768; docs/neural.md). ``discussion_model_dir``: that
    model's directory (None: the shipped one, :data:`DISCUSSIONS_MODEL_DIR`, unless
    ``model_dir`` names a model of your own, which then reads every page).

    ``pages="any"`` reads every page with that every-type model, for crawls of sites
    that are not news: forum threads, listings, product, service and documentation
    pages. Cross-validated by site it leads every WCXB page type, listings 0.500 ->
    0.637 and forums 0.649 -> 0.749, and loses a little on news (the six unseen sets'
    mean 0.926 -> 0.916; docs/neural.md, "Pages other than articles"). The default,
    ``"articles"``, reads pages as articles (:data:`PAGES`).
    """

    name = "boosted_labeler"

    def __init__(
        self,
        model_dir: str | None = None,
        threshold: float | None = None,
        threads: int = 1,
        grow_threshold: float | None = None,
        drop_footers: bool = True,
        seed_summary: bool = True,
        discussions: bool = True,
        discussion_model_dir: str | None = None,
        pages: str = "articles",
    ) -> None:
        if pages not in PAGES:
            raise ValueError(f"pages must be one of {', '.join(PAGES)}, not {pages!r}")
        self.pages = pages
        self.grow_threshold = grow_threshold
        self.drop_footers = drop_footers
        self.seed_summary = seed_summary
        self.discussions = discussions
        self.discussion_model_dir = discussion_model_dir
        super().__init__(model_dir, threshold, threads)
        if discussions or pages == "any":
            self.discussion_model()  # (missing or corrupt: fails now, as the model does)

    def grow_threshold_of(self, model: BoostedModel) -> float:
        """The probability each block of a content run needs: ``grow_threshold``, else
        the model's."""
        return model.grow_threshold if self.grow_threshold is None else float(self.grow_threshold)

    def model(self) -> BoostedModel:
        """The loaded model (raises ModelUnavailableError without onnxruntime)."""
        return get_boosted_model(self.model_dir, self.threads)

    def discussion_model(self) -> BoostedModel:
        """The loaded every-type model: for pages that declare a discussion, and for
        every page with ``pages="any"`` (see the class)."""
        if self.discussion_model_dir is not None:
            return get_boosted_model(self.discussion_model_dir, self.threads)
        if self.model_dir is not None:
            return self.model()
        return get_boosted_model(DISCUSSIONS_MODEL_DIR, self.threads)

    def model_for(self, doc: Document) -> BoostedModel:
        """The model that reads ``doc``: the every-type model with ``pages="any"``, or
        if the page declares a discussion (and ``discussions`` is on); else the model."""
        if self.pages == "any" or (self.discussions and page_declares_discussion(doc)):
            return self.discussion_model()
        return self.model()

    def scored(self, doc: Document) -> BlockScores:
        """The trees' view of a page with blocks: which blocks they decide, and those
        blocks' content probability."""
        model = self.model_for(doc)
        blocks = doc.blocks
        features = boosted_features(doc)
        doc.check_deadline()
        words = np.fromiter(map(_NUM_WORDS, blocks), dtype=np.int64, count=len(blocks))
        long = decided_by_trees(words, features, model.short_words, model.short_headings)
        rows = np.flatnonzero(long)
        probability = model.content_probability(features, rows)
        threshold = self.threshold_of(model)
        if self.seed_summary:
            probability = seeded_by_summary(doc, rows, probability, threshold)
        return BlockScores(
            words,
            long,
            rows,
            probability,
            navigation_links(features[rows]),
            threshold,
            min(self.grow_threshold_of(model), threshold),
            in_footer(features) if self.drop_footers else None,
        )

    def __call__(self, doc: Document) -> bool:
        self.model()  # (a model that cannot load says so on any page)
        if not doc.blocks:
            return False
        scores = self.scored(doc)
        return scores.decide(doc.blocks, scores.threshold)


class BlockScores(NamedTuple):
    """What :meth:`BoostedLabeler.scored` gives: per block its ``words`` and whether the
    trees decide it (``long``); per such block (``rows``, in page order) its content
    ``probability`` and whether it is a navigation link (``excluded``); the
    labeler's run thresholds; per block whether it lies in a ``<footer>`` element
    (``footer``; None: the rule is off)."""

    words: np.ndarray
    long: np.ndarray
    rows: np.ndarray
    probability: np.ndarray
    excluded: np.ndarray
    threshold: float
    grow_threshold: float
    footer: np.ndarray | None = None

    def content(self, seed: float) -> np.ndarray:
        """Per block whether it is content: runs seeded at ``seed`` (:func:`content_runs`),
        then :meth:`every_block`. Training scores its folds with the same decisions."""
        return self.every_block(
            content_runs(self.probability, seed, self.grow_threshold, self.excluded)
        )

    def every_block(self, decided: np.ndarray) -> np.ndarray:
        """Per block whether it is content, given the decisions of the blocks the trees
        decide (``decided``, one per row): the short blocks by their neighbours
        (:func:`short_block_decisions`), the footers' blocks left out
        (:func:`outside_footers`)."""
        content = np.zeros(len(self.long), dtype=bool)
        content[self.rows] = decided
        content = short_block_decisions(content, self.long)
        if self.footer is not None:
            content = outside_footers(content, self.footer)
        return content

    def decide(self, blocks: list[Any], seed: float) -> bool:
        """Set the blocks' flags to :meth:`content`; True if any changed."""
        return set_flags(blocks, self.content(seed).tolist())


class DominantBlock(Filter):
    """The last rescue of a page where nothing is content: its longest block the trees
    decide, if it holds at least half of the page's words, is not navigation and reaches
    the labeler's grow threshold, seeds a run (:func:`content_runs` with its probability
    as the threshold). A press release of 1,100 words in one block, which the trees
    doubted (0.46 against the 0.55 a run needs), came out empty. Pages with content, and
    pages where no block dominates, are left as they are."""

    name = "dominant_block"

    def __init__(self, labeler: BoostedLabeler | None = None) -> None:
        # (None: the shipped model and its thresholds, as in a spec of its own)
        self.labeler = labeler if labeler is not None else BoostedLabeler()

    def __call__(self, doc: Document) -> bool:
        blocks = doc.blocks
        if not blocks or any(block.is_content for block in blocks):
            return False
        scores = self.labeler.scored(doc)
        if not len(scores.rows):
            return False
        k = int(np.argmax(scores.words[scores.rows]))
        dominant = 2 * scores.words[scores.rows[k]] >= scores.words.sum()
        seed = float(scores.probability[k])
        if not dominant or seed < scores.grow_threshold or scores.excluded[k]:
            return False
        return scores.decide(blocks, seed)


def seeded_by_summary(
    doc: Document, rows: np.ndarray, probability: np.ndarray, threshold: float
) -> np.ndarray:
    """``probability`` (of the blocks ``rows``) with the block that holds the page's own
    summary (:meth:`~scrapy_boilerplate.neural.summary.Summary.block` among them) raised
    to ``threshold`` if the trees give it :data:`SUMMARY_FLOOR` or more: the story's
    first paragraph or standfirst, which a site writes its description from, seeds a run
    of content (a short post under a long thread, where the trees doubt every line).
    Cross-validated by site, on the fold models of five seeds, the training sets' mean
    +0.0011 (docs/neural.md). The blocks are searched only when one of the doubtful ones
    holds enough of the summary (most pages stop at the few doubtful blocks)."""
    doubtful = np.flatnonzero((probability >= SUMMARY_FLOOR) & (probability < threshold))
    if not len(doubtful):
        return probability
    summary = Summary.of(page_summary(doc.root))
    if summary is None:
        return probability
    blocks = doc.blocks
    texts = [blocks[i].text for i in rows]
    if all(summary.count(texts[j]) < summary.need for j in doubtful):
        return probability
    return raised_to_seed(probability, summary.block(texts), threshold)


def raised_to_seed(
    probability: np.ndarray, row: int, threshold: float, floor: float = SUMMARY_FLOOR
) -> np.ndarray:
    """``probability`` with its ``row`` raised to ``threshold`` (a copy) if it lies at
    ``floor`` or more and below ``threshold``; the same array otherwise (and for a
    ``row`` of -1): the block then seeds a run of :func:`content_runs`."""
    if row < 0 or not floor <= probability[row] < threshold:
        return probability
    seeded = probability.copy()
    seeded[row] = threshold
    return seeded


def in_footer(features: np.ndarray) -> np.ndarray:
    """Blocks inside a ``<footer>`` element (the block's or an ancestor's tag)."""
    return features[:, _FOOTER_TAG] > 0


def navigation_links(features: np.ndarray) -> np.ndarray:
    """Blocks all of whose words are links, inside navigation or a footer (by the class /
    id words or the tags of their ancestors)."""
    return (features[:, _LINK_DENSITY] >= 1.0) & (features[:, _NAVIGATION] > 0).any(axis=1)


#: (threshold, grow_threshold) for each ``favor`` of :func:`boosted` ("balanced": the
#: model's own); chosen on the training sets cross-validated by site (docs/neural.md,
#: "Precision or recall")
FAVOR: dict[str, tuple[float | None, float | None]] = {
    "precision": (0.75, 0.6),
    "balanced": (None, None),
    "recall": (0.4, 0.25),
}


def boosted(
    model_dir: str | None = None,
    threshold: float | None = None,
    threads: int = 1,
    drop_comments: bool = True,
    fallback: Any = None,
    noscript: bool = True,
    without_comments: bool = True,
    grow_threshold: float | None = None,
    favor: str | None = None,
    dominant_block: bool = True,
    drop_footers: bool = True,
    seed_summary: bool = True,
    discussions: bool = True,
    discussion_model_dir: str | None = None,
    pages: str = "articles",
    every_type_rescue: bool = True,
) -> Chain:
    """The ``boosted`` extractor (the default): the boosted labeler, then
    (``drop_comments``) the :class:`~scrapy_boilerplate.filters.CommentSectionFilter`,
    then (``noscript``) both again on the markup of the page's ``<noscript>`` elements
    where they found no content (:class:`~scrapy_boilerplate.filters.NoscriptContent`),
    then (``without_comments``) both again on the page without its comment threads where
    still nothing is content (a short story under a long discussion:
    :class:`~scrapy_boilerplate.filters.WithoutCommentThreads`), then
    (``dominant_block``) the page's dominant block where still nothing is
    (:class:`DominantBlock`), then, if ``fallback`` is an extractor name or chain spec,
    that chain on pages where nothing is content.
    ``threshold`` and ``grow_threshold``: see :class:`BoostedLabeler`. ``favor``:
    ``"precision"`` (less boilerplate, some content lost), ``"balanced"`` (the model's
    thresholds) or ``"recall"`` (more content, more boilerplate): sets both thresholds
    (:data:`FAVOR`), so it cannot be given with either. ``drop_footers``: blocks inside
    a ``<footer>`` element are not content where something else is; ``seed_summary``:
    the block holding the page's meta description seeds a run of content where the
    trees give it at least :data:`SUMMARY_FLOOR`; ``discussions``: a page that declares
    itself a discussion (a forum thread, a question and its answers) is read by the
    discussions model (``discussion_model_dir``; None: the shipped one); ``pages``:
    ``"articles"`` (news, blogs) or ``"any"`` (every page by that every-type model:
    forums, listings, shops, documentation) (see :class:`BoostedLabeler`);
    ``every_type_rescue``: where the article model still finds nothing, the page is read
    by the every-type model (this whole chain with ``pages="any"``: a listing, a shop's
    page, a thread that declares nothing; cross-validated by site, the training sets'
    mean +0.0016 to +0.0018 with three seeds, docs/neural.md). Off with ``pages="any"``
    (the every-type model read the page already) and with a ``model_dir`` of one's own
    unless a ``discussion_model_dir`` is named (no second model to read it)."""
    if favor is not None:
        if favor not in FAVOR:
            raise ValueError(f"favor must be one of {', '.join(FAVOR)}, not {favor!r}")
        if threshold is not None or grow_threshold is not None:
            raise ValueError("favor sets threshold and grow_threshold: give it or them")
        threshold, grow_threshold = FAVOR[favor]

    def reading(pages: str, second: Filter | None, user_fallback: Any) -> Chain:
        # the labeler reading pages as ``pages`` says, its comment filter and rescues
        labeler = BoostedLabeler(
            model_dir,
            threshold,
            threads,
            grow_threshold,
            drop_footers,
            seed_summary,
            discussions,
            discussion_model_dir,
            pages,
        )
        rescue = DominantBlock(labeler) if dominant_block else None
        return labeler_chain(
            labeler,
            "boosted",
            drop_comments,
            user_fallback,
            noscript,
            without_comments,
            rescue,
            second,
        )

    second = None
    if (
        every_type_rescue
        and pages == "articles"
        and (model_dir is None or discussion_model_dir is not None)
    ):
        # the same chain and thresholds (``favor``'s, once resolved), the every-type model
        # on every page; the user's fallback follows this reading
        second = reading("any", None, None)
    return reading(pages, second, fallback)


#: the labeler's filter and named extractor (registered by scrapy_boilerplate.families)
FILTERS: tuple[type[Filter], ...] = (BoostedLabeler, DominantBlock)
EXTRACTORS: dict[str, Callable[..., Filter]] = {"boosted": boosted}
