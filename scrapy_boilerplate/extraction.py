"""Extractors (parse, filter, render) and their result, :class:`Extraction`."""

from __future__ import annotations

import functools
import time
from collections.abc import Callable, Collection
from dataclasses import dataclass, field
from typing import Any

from .comments import comment_text, snapshot
from .document import Document, TextBlock
from .encoding import declared_encoding, looks_binary
from .errors import ExtractionTimeout
from .filters import boilerpipe
from .filters.base import Filter
from .parse import parse_html
from .registry import DEFAULT_EXTRACTOR, extractor_factory
from .render import render_json, render_text
from .site_memory import SiteMemory
from .spec import build_chain

__all__ = ["Extraction", "Extractor", "extract", "get_extractor"]

# Why a result is empty (``Extraction.reason``).
EMPTY_INPUT = "empty_input"  # nothing but whitespace came in
NO_TEXT = "no_text"  # the page parsed, but holds no text blocks
NO_CONTENT = "no_content"  # there is text, but the chain kept none of it
TIMEOUT = "timeout"  # the extraction ran past its time budget
BINARY = "binary"  # bytes that are no text: an image, a PDF, compressed or random data
#: the reasons of an empty result that say the page, read to the end, holds no article
#: (zyte-common-items' ``probability`` 0: docs/output.md); a ``timeout`` says nothing
NO_ARTICLE_REASONS = frozenset({EMPTY_INPUT, BINARY, NO_TEXT, NO_CONTENT})


def article_probability(text: str | None, reason: str | None) -> float | None:
    """The probability that a page holds an article, as zyte-common-items' metadata
    says it, from a result's ``text`` and ``reason``: 1.0 where main text was found, 0.0
    where the page, read to the end, holds none (:data:`NO_ARTICLE_REASONS`: what the
    library's ``no_item_found()`` says), None where nothing is known (out of time, an
    error)."""
    if text:
        return 1.0
    return 0.0 if reason in NO_ARTICLE_REASONS else None


#: the named extractors whose text is boilerpipe's own (Java's getText, spaces at links'
#: edges and all): boilerpipe's; every other extractor renders the text as shown
JAVA_TEXT_EXTRACTORS = frozenset(boilerpipe.EXTRACTORS)


@dataclass(eq=False)
class Extraction:
    """The result of extracting one page.

    ``text`` is the main content ("" when nothing qualified, never None); ``reason`` says
    why it is empty (``empty_input``, ``binary``, ``no_text``, ``no_content``, ``timeout``; the Scrapy layer adds
    ``error`` and the reasons it skips a response for), else None; ``error`` names the
    exception when ``reason == "error"``. ``blocks`` are the labelled blocks, ``timings``
    milliseconds per stage (parse, filter, render).
    """

    text: str
    title: str | None
    blocks: list[TextBlock] = field(repr=False)
    extractor: str | None
    url: str | None = None
    reason: str | None = None
    warnings: tuple[str, ...] = ()
    timings: dict[str, float] = field(default_factory=dict, repr=False)
    document: Document | None = field(default=None, repr=False)
    error: str | None = None
    #: the content as Markdown / as a clean HTML fragment, when asked for (``formats``)
    markdown: str | None = field(default=None, repr=False)
    html: str | None = field(default=None, repr=False)
    #: the article's declared metadata (``metadata=True``): see ``scrapy_boilerplate.metadata``
    metadata: dict[str, Any] | None = field(default=None, repr=False)
    #: the readers' comments, one block per line (``comments=True``; "" when the page
    #: has none): see ``scrapy_boilerplate.comments``
    comments: str | None = field(default=None, repr=False)

    @classmethod
    def empty(
        cls,
        reason: str,
        url: str | None = None,
        extractor: str | None = None,
        error: str | None = None,
    ) -> Extraction:
        """A result without text: a page that was not extracted (``reason`` says why) or
        whose extraction failed (``reason="error"``, ``error`` says how)."""
        return cls(
            text="", title=None, blocks=[], extractor=extractor, url=url, reason=reason, error=error
        )

    @property
    def content_blocks(self) -> list[TextBlock]:
        return [b for b in self.blocks if b.is_content]

    def annotated(self) -> str:
        """The page of this result as the annotated view (see :meth:`Extractor.annotate`;
        the tooltips name the deciding filters if it was extracted with ``trace=True``)."""
        from .markup.annotated import annotated_html

        return annotated_html(self.document, self.extractor, self.reason)

    def to_dict(self, blocks: bool = False) -> dict[str, Any]:
        """Plain data for JSON: the result's fields but ``blocks`` and ``document`` (the
        blocks' JSON view too, with ``blocks=True``). The shape of ``meta["boilerplate_result"]``
        in a crawl, and of ``--format jsonl``."""
        out: dict[str, Any] = {
            "url": self.url,
            "title": self.title,
            "text": self.text,
            "extractor": self.extractor,
            "reason": self.reason,
            "error": self.error,
            "warnings": list(self.warnings),
            "timings": dict(self.timings),
        }
        for name in OUTPUTS:  # only if asked for: other outputs do not change
            if getattr(self, name) is not None:
                out[name] = getattr(self, name)
        if blocks and self.document is not None:
            out["blocks"] = render_json(self.document)["blocks"]
        return out


class Extractor:
    """A reusable extractor: a chain of filters with a name.

    Stateless between pages: one instance serves every page and thread, and pickles (so it
    can be shipped to worker processes). ``cjk=False`` counts words exactly as the Java
    boilerpipe does, also in Chinese, Japanese and Thai text.
    """

    def __init__(
        self,
        chain: Filter,
        name: str = "custom",
        cjk: bool = True,
        java_text: bool | None = None,
    ) -> None:
        self.chain = chain
        self.name = name
        self.cjk = cjk
        #: render boilerpipe's text (a space at both edges of every link) instead of the
        #: text as the page shows it, and read plugin elements as boilerpipe does
        #: (ignored) instead of as a browser shows them (``parse_html``'s
        #: ``plugin_fallbacks``); by default for boilerpipe's named extractors only, whose
        #: output is the Java library's
        self.java_text = name in JAVA_TEXT_EXTRACTORS if java_text is None else java_text

    def __repr__(self) -> str:
        return f"Extractor({self.name!r}, cjk={self.cjk}, chain={self.chain!r})"

    @property
    def memory_key(self) -> str:
        """What keeps this extractor's decisions apart from another's in a
        :class:`~scrapy_boilerplate.site_memory.SiteMemory`: its name, its chain and its
        parameters (two chain specs are both named "custom", and one's decisions say
        nothing of the other's). Made once; an extractor is not changed once it runs."""
        key = self.__dict__.get("_memory_key")
        if key is None:
            key = self._memory_key = repr(self)
        return key

    def process(self, doc: Document) -> Document:
        """Run the chain over a parsed document (in place) and return it."""
        self.chain(doc)
        return doc

    def extract(
        self,
        html: str | bytes,
        url: str | None = None,
        *,
        encoding: str | None = None,
        content_type: str | None = None,
        trace: bool = False,
        timeout: float | None = None,
        formats: Collection[str] = (),
        metadata: bool = False,
        comments: bool = False,
        site_memory: SiteMemory | None = None,
    ) -> Extraction:
        """Extract the main content of one page (``str``, or ``bytes`` in any encoding).

        ``formats``: further renderings of the content to make, ``"markdown"`` and / or
        ``"html"`` (``Extraction.markdown``, ``Extraction.html``; "" when there is no
        text, None when not asked for). ``metadata=True`` reads the article's declared
        metadata (``Extraction.metadata``; the ``[article]`` extra). ``comments=True``
        gives the readers' comments of the page as their own text (``Extraction.comments``,
        "" when there are none), whatever the chain decided about them.

        ``site_memory``: a :class:`~scrapy_boilerplate.site_memory.SiteMemory` shared by the
        pages of a crawl: this page's decisions are recorded under its site (``url``'s),
        and its content blocks that the site's earlier pages left out as boilerplate are
        left out here too (the Scrapy layer passes its crawl's memory).

        ``trace=True`` records in each block which filter decided it. ``timeout``
        (seconds) is a time budget, checked after parsing, before each filter and inside
        the slower filters: past it, the result is empty with ``reason="timeout"`` (a step
        that is running finishes first; the page-size and tag limits bound each step).
        Raises ``TypeError`` for input that is neither text nor bytes; any text or bytes
        give an Extraction.
        """
        t0 = time.perf_counter()
        formats = _check_formats(formats)
        if isinstance(html, (bytes, bytearray, memoryview)) and looks_binary(
            bytes(html[:4096]), encoding or declared_encoding(content_type)
        ):
            return _rendered(Extraction.empty(BINARY, url, self.name), formats, comments=comments)
        deadline = time.monotonic() + timeout if timeout else None
        doc = parse_html(
            html,
            url,
            encoding=encoding,
            content_type=content_type,
            cjk=self.cjk,
            plugin_fallbacks=not self.java_text,
        )
        doc.trace = trace
        doc.deadline = deadline
        had_text = bool(doc.blocks)
        # the blocks as parsed: the chain may fuse or drop a comment thread's blocks
        parsed = snapshot(doc) if comments else None
        t1 = time.perf_counter()
        try:
            doc.check_deadline()
            self.chain(doc)
            if site_memory is not None:
                site_memory.apply(doc, self.memory_key)
        except ExtractionTimeout:
            result = Extraction.empty(TIMEOUT, url, self.name)
            result.title = doc.title or doc.fallback_title
            result.warnings = tuple(doc.warnings)
            result.timings = {"parse_ms": (t1 - t0) * 1000}
            return _rendered(result, formats, comments=comments)
        t2 = time.perf_counter()
        text = render_text(doc, self.java_text)
        t3 = time.perf_counter()
        reason = None
        if not text:
            if doc.root is None:
                reason = EMPTY_INPUT if not doc.warnings else NO_TEXT
            elif not had_text:
                reason = NO_TEXT
            else:
                reason = NO_CONTENT
        result = Extraction(
            text=text,
            title=doc.title or doc.fallback_title,
            blocks=doc.blocks,
            extractor=self.name,
            url=url,
            reason=reason,
            warnings=tuple(doc.warnings),
            timings={
                "parse_ms": (t1 - t0) * 1000,
                "filter_ms": (t2 - t1) * 1000,
                "render_ms": (t3 - t2) * 1000,
            },
            document=doc,
        )
        if formats:
            _rendered(result, formats, doc if text else None)
            result.timings["markup_ms"] = (time.perf_counter() - t3) * 1000
        if metadata:
            t4 = time.perf_counter()
            result.metadata = _metadata(doc, result)
            result.timings["metadata_ms"] = (time.perf_counter() - t4) * 1000
        if parsed is not None:
            t5 = time.perf_counter()
            result.comments = _besides_text(result, "comments", comment_text, doc, parsed) or ""
            result.timings["comments_ms"] = (time.perf_counter() - t5) * 1000
        return result

    def annotate(
        self,
        html: str | bytes,
        url: str | None = None,
        *,
        encoding: str | None = None,
        content_type: str | None = None,
        timeout: float | None = None,
    ) -> str:
        """The page as a standalone HTML document with every block's text marked
        content (green) or boilerplate (struck through), the filter that decided it in
        each block's tooltip: the view for finding out why a page went wrong. Sanitised
        (no script or event handler of the page survives) and linear in the page; see
        :mod:`scrapy_boilerplate.markup.annotated`. Arguments as :meth:`extract`."""
        result = self.extract(
            html, url, encoding=encoding, content_type=content_type, trace=True, timeout=timeout
        )
        return result.annotated()


def _besides_text(result: Extraction, output: str, make: Callable[..., Any], *args: Any) -> Any:
    """``make(*args)`` for an output asked for besides the text, or None with an
    ``{output}_error`` warning if it raises: a failure there must not cost the page its
    text (in a crawl, the item its main text). The fuzz tests fail on such a warning."""
    try:
        return make(*args)
    except Exception as exc:  # noqa: BLE001 - any failure is this output's alone
        result.warnings = (*result.warnings, f"{output}_error: {type(exc).__name__}: {exc}"[:300])
        return None


#: the renderings ``Extractor.extract(formats=...)`` can add to the text
FORMATS = ("markdown", "html")
#: what a result carries besides its text when asked for: the renderings, the metadata
#: and the comments (``Extraction`` fields, ``to_dict`` keys, the worker's ``formats``)
OUTPUTS = (*FORMATS, "metadata", "comments")


def _check_formats(formats: Collection[str]) -> frozenset[str]:
    if isinstance(formats, str):
        formats = (formats,)
    chosen = frozenset(formats)
    unknown = chosen - set(FORMATS)
    if unknown:
        raise ValueError(f"unknown format {sorted(unknown)[0]!r}: choose from {', '.join(FORMATS)}")
    return chosen


def _rendered(
    result: Extraction,
    formats: frozenset[str],
    doc: Document | None = None,
    comments: bool = False,
) -> Extraction:
    """Fill the renderings asked for: from the document's content, or "" without text
    (and, for a page that was not extracted, "" for the comments if they were asked for)."""
    if comments:
        result.comments = ""
    if not formats:
        return result
    from .markup import content_tree, render_html, render_markdown

    tree = _besides_text(result, "markup", content_tree, doc) if doc is not None else None
    if "markdown" in formats:
        result.markdown = (
            "" if tree is None else _besides_text(result, "markdown", render_markdown, tree) or ""
        )
    if "html" in formats:
        result.html = "" if tree is None else _besides_text(result, "html", render_html, tree) or ""
    return result


def _metadata(doc: Document, result: Extraction) -> dict[str, Any]:
    from .metadata import extract_metadata, require_metadata

    require_metadata()  # asked for without the extra: says what to install
    return _besides_text(result, "metadata", extract_metadata, doc) or {}


@functools.lru_cache(maxsize=64)
def _named_extractor(name: str, cjk: bool) -> Extractor:
    return Extractor(build_chain(name), name=name, cjk=cjk)


def get_extractor(
    spec: Any = DEFAULT_EXTRACTOR,
    *,
    cjk: bool = True,
    allowed_imports: Collection[str] | None = None,
) -> Extractor:
    """An extractor for a name (``"article"``, ``"web2text"``, ...; by default
    :data:`~scrapy_boilerplate.registry.DEFAULT_EXTRACTOR`) or a chain spec.

    Named extractors are built once per process and shared. ``allowed_imports``: for a
    spec from an untrusted source, the module prefixes its import paths may name (see
    :func:`~scrapy_boilerplate.spec.build_chain`). A bad spec raises
    :class:`~scrapy_boilerplate.errors.ChainSpecError` naming the bad entry.
    """
    if isinstance(spec, Extractor):
        return spec
    if isinstance(spec, str) and extractor_factory(spec) is not None:
        return _named_extractor(spec, cjk)
    chain = build_chain(spec, allowed_imports=allowed_imports)
    name = spec if isinstance(spec, str) else getattr(chain, "label", "custom")
    return Extractor(chain, name=name, cjk=cjk)


def extract(
    html: str | bytes,
    url: str | None = None,
    extractor: Any = DEFAULT_EXTRACTOR,
    **kwargs: Any,
) -> Extraction:
    """Extract the main content of a page with a named extractor or chain spec (by default
    :data:`~scrapy_boilerplate.registry.DEFAULT_EXTRACTOR`).

    ``html`` is ``str`` or ``bytes``; keyword arguments go to :meth:`Extractor.extract`.
    """
    return get_extractor(extractor).extract(html, url, **kwargs)
