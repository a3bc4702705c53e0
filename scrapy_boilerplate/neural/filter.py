"""The Web2Text labeler as a filter, and the ``web2text`` extractor.

``Web2TextLabeler`` computes the block and edge features of a page, runs the unary and
pairwise networks (ONNX, onnxruntime) and labels the blocks with the Viterbi path that
maximises ``sum log p_unary + lambda * sum log p_pairwise``.

The filter holds only its parameters: the model (sessions) is loaded lazily, once per
process, on the first page, so the filter pickles as plain data and importing this module
does not import onnxruntime.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..document import Document
from ..filters.base import Chain, Filter, set_flags
from ..filters.comments import CommentSectionFilter
from ..filters.fallback import FallbackFilter
from ..filters.noscript import NoscriptContent
from ..filters.threads import WithoutCommentThreads
from .features import page_features
from .model import get_model
from .viterbi import viterbi

__all__ = [
    "EXTRACTORS",
    "FILTERS",
    "ModelLabeler",
    "ProbabilityLabeler",
    "Web2TextLabeler",
    "labeler_chain",
    "web2text",
]


class ModelLabeler(Filter):
    """Base of the learned labelers: the model is loaded once per process, so a labeler
    pickles as its constructor arguments (:meth:`Filter.params`) and a worker process
    loads its own model on its first page."""

    def __getstate__(self) -> dict[str, Any]:
        return self.params()

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)


class ProbabilityLabeler(ModelLabeler):
    """Base of the labelers whose model gives each block a content probability, content
    at or above a threshold (the model's, or ``threshold``). ``model_dir``: the model's
    directory (None: the shipped one); ``threads``: onnxruntime intra-op threads.
    Subclasses say how :meth:`model` loads it."""

    def __init__(
        self, model_dir: str | None = None, threshold: float | None = None, threads: int = 1
    ) -> None:
        self.model_dir = model_dir
        self.threshold = threshold
        self.threads = threads
        # loaded now, so that a missing runtime or a missing or corrupt file fails when
        # the chain is built, not on every page; a pickled labeler loads it on first use
        self.model()

    def model(self) -> Any:
        """The loaded model (raises ModelUnavailableError when it cannot load)."""
        raise NotImplementedError

    def threshold_of(self, model: Any) -> float:
        """The content probability a block needs: ``threshold``, else the model's."""
        return model.threshold if self.threshold is None else float(self.threshold)


class Web2TextLabeler(ModelLabeler):
    """Label every block content / boilerplate with the Web2Text model.

    ``model_dir``: a directory with the model files (None: the shipped model).
    ``lam``: the pairwise weight of the Viterbi objective (None: the model's, chosen on
    validation). ``threads``: onnxruntime intra-op threads per session.
    """

    name = "web2text_labeler"

    def __init__(
        self, model_dir: str | None = None, lam: float | None = None, threads: int = 1
    ) -> None:
        self.model_dir = model_dir
        self.lam = lam
        self.threads = threads
        # the model is loaded (once per process) now, so that a missing runtime or a
        # missing or corrupt file fails when the chain is built, not on every page; a
        # pickled labeler (in a worker process) loads it on its first page
        self.model()

    def model(self) -> Any:
        """The loaded model (raises ModelUnavailableError without onnxruntime)."""
        return get_model(self.model_dir, self.threads)

    def __call__(self, doc: Document) -> bool:
        model = self.model()
        blocks = doc.blocks
        if not blocks:
            return False
        feats, edges = page_features(doc, extended=model.extended)
        doc.check_deadline()
        log_u, log_e = model.log_probs(feats, edges)
        lam = model.lam if self.lam is None else float(self.lam)
        labels = viterbi(log_u, log_e, lam)
        return set_flags(blocks, [bool(y) for y in labels.tolist()])


def web2text(
    model_dir: str | None = None,
    lam: float | None = None,
    threads: int = 1,
    drop_comments: bool = True,
    fallback: Any = None,
) -> Chain:
    """The ``web2text`` extractor: the Web2Text labeler, then (``drop_comments``) the
    :class:`~scrapy_boilerplate.filters.CommentSectionFilter`, then, if ``fallback`` is
    an extractor name or chain spec, that chain on pages where nothing is content.

    The network sees a window of a few blocks, in which a reader's comment reads like
    article text; the comment containers' names tell them apart. The fallback is off by
    default: it empties fewer pages, but lowers the benchmarks' mean precision more than
    it raises their recall (docs/neural.md).
    """
    labeler = Web2TextLabeler(model_dir=model_dir, lam=lam, threads=threads)
    return labeler_chain(labeler, "web2text", drop_comments, fallback)


def labeler_chain(
    labeler: Filter,
    name: str,
    drop_comments: bool,
    fallback: Any,
    noscript: bool = False,
    without_comments: bool = False,
    rescue: Filter | None = None,
    second_reading: Filter | None = None,
) -> Chain:
    """A learned labeler's extractor: the labeler, then (``drop_comments``) the
    :class:`~scrapy_boilerplate.filters.CommentSectionFilter`, then (``noscript``) the
    same two again on the page's ``<noscript>`` markup where they found nothing
    (:class:`~scrapy_boilerplate.filters.NoscriptContent`), then (``without_comments``)
    the same two again on the page without its comment threads where still nothing was
    found (:class:`~scrapy_boilerplate.filters.WithoutCommentThreads`), then ``rescue``
    (a labeler's own last try where nothing is content; the comment filter after it),
    then ``second_reading`` (a whole chain, another model's, run where still nothing is
    content), then, if ``fallback`` is an extractor name or chain spec, that chain on
    pages where nothing is content."""
    filters: list[Filter] = [labeler]
    if drop_comments:
        filters.append(CommentSectionFilter())
    again = Chain(filters, name)  # the labeler and the comment filter, run again
    if noscript:
        filters.append(NoscriptContent(again))
    if without_comments:
        filters.append(WithoutCommentThreads(again))
    if rescue is not None:
        filters.append(rescue)
        if drop_comments:
            filters.append(CommentSectionFilter())
    if second_reading is not None:
        filters.append(FallbackFilter(second_reading))
    if fallback is not None:
        filters.append(FallbackFilter(fallback))
    return Chain(filters, name)


#: the family's filters and named extractors (registered by scrapy_boilerplate.families)
FILTERS: tuple[type[Filter], ...] = (Web2TextLabeler,)
EXTRACTORS: dict[str, Callable[..., Filter]] = {"web2text": web2text}
