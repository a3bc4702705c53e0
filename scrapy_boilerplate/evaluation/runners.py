"""Extractors behind one callable interface: ``runner(html, url, lang) -> text``.

Ours (every name in :data:`scrapy_boilerplate.EXTRACTORS`) and the extractors users would
otherwise pick, each called the way its documentation recommends for article text:

* ``trafilatura``: ``trafilatura.extract(html)`` with its defaults;
* ``trafilatura_no_comments``: ``trafilatura.extract(html, include_comments=False)``, the
  setting of the article-extraction benchmark (readers' comments are not main text, and
  our extractors drop them too);
* ``readability``: readability-lxml ``Document(html).summary()``, then the text of that HTML
  (lxml ``text_content()``, with a line break after each block element so that paragraphs
  do not run together, whitespace normalised);
* ``boilerpy3``: ``extractors.ArticleExtractor().get_content(html)``;
* ``justext``: ``justext.justext(html, stoplist)`` with the stoplist of the page's language
  (English when there is none for it), keeping the paragraphs that are not boilerplate;
* ``resiliparse``: ``extract_plain_text(html, main_content=True)``.

Plus ``lxml``: a bare parse of the page (the speed floor; it extracts nothing).

Other extractors are imported only when their runner is first loaded; one that is not
installed gives a runner with ``available = False`` and a reason, never an ImportError.
"""

from __future__ import annotations

import importlib.metadata
from collections.abc import Callable
from typing import Any

from ..registry import EXTRACTORS

__all__ = [
    "FLOOR",
    "JUSTEXT_LANGUAGES",
    "OTHER_EXTRACTORS",
    "Runner",
    "RunnerUnavailable",
    "chain_runner",
    "get_runner",
    "NOT_IN_ALL",
    "our_extractors",
]

#: the other extractors the evaluation knows, in report order
OTHER_EXTRACTORS = (
    "trafilatura",
    "trafilatura_no_comments",
    "readability",
    "boilerpy3",
    "justext",
    "resiliparse",
)
#: the name of the bare-parse runner (speed floor)
FLOOR = "lxml"

# ISO 639-1 (and a few 639-3) codes to the names of jusText's stoplists.
JUSTEXT_LANGUAGES = {
    "af": "Afrikaans", "sq": "Albanian", "ar": "Arabic", "an": "Aragonese", "hy": "Armenian",
    "rup": "Aromanian", "ast": "Asturian", "az": "Azerbaijani", "eu": "Basque",
    "be": "Belarusian", "bn": "Bengali", "bpy": "Bishnupriya_Manipuri", "bs": "Bosnian",
    "br": "Breton", "bg": "Bulgarian", "ca": "Catalan", "ceb": "Cebuano", "cv": "Chuvash",
    "hr": "Croatian", "cs": "Czech", "da": "Danish", "nl": "Dutch", "en": "English",
    "eo": "Esperanto", "et": "Estonian", "fi": "Finnish", "fr": "French", "gl": "Galician",
    "ka": "Georgian", "de": "German", "el": "Greek", "gu": "Gujarati", "ht": "Haitian",
    "he": "Hebrew", "iw": "Hebrew", "hi": "Hindi", "hu": "Hungarian", "is": "Icelandic",
    "io": "Ido", "ig": "Igbo", "id": "Indonesian", "in": "Indonesian", "ga": "Irish",
    "it": "Italian", "jv": "Javanese", "kn": "Kannada", "kk": "Kazakh", "ko": "Korean",
    "ku": "Kurdish", "ky": "Kyrgyz", "la": "Latin", "lv": "Latvian", "lt": "Lithuanian",
    "lmo": "Lombard", "nds": "Low_Saxon", "lb": "Luxembourgish", "mk": "Macedonian",
    "ms": "Malay", "ml": "Malayalam", "mt": "Maltese", "mr": "Marathi", "nap": "Neapolitan",
    "ne": "Nepali", "new": "Newar", "no": "Norwegian_Bokmal", "nb": "Norwegian_Bokmal",
    "nn": "Norwegian_Nynorsk", "oc": "Occitan", "fa": "Persian", "pms": "Piedmontese",
    "pl": "Polish", "pt": "Portuguese", "qu": "Quechua", "ro": "Romanian", "ru": "Russian",
    "sgs": "Samogitian", "sr": "Serbian", "sh": "Serbo_Croatian", "scn": "Sicilian",
    "sk": "Slovak", "sl": "Slovenian", "es": "Spanish", "su": "Sundanese", "sw": "Swahili",
    "sv": "Swedish", "tl": "Tagalog", "ta": "Tamil", "te": "Telugu", "tr": "Turkish",
    "tk": "Turkmen", "uk": "Ukrainian", "ur": "Urdu", "uz": "Uzbek", "vi": "Vietnamese",
    "vo": "Volapuk", "wa": "Walloon", "war": "Waray_Waray", "cy": "Welsh",
    "fy": "West_Frisian", "pnb": "Western_Panjabi", "yo": "Yoruba",
}  # fmt: skip

# readability's summary is HTML: these elements end a line in its text
_BLOCK_TAGS = frozenset(
    (
        "address", "article", "aside", "blockquote", "br", "dd", "div", "dl", "dt",
        "figcaption", "figure", "footer", "h1", "h2", "h3", "h4", "h5", "h6", "header",
        "hr", "li", "main", "nav", "ol", "p", "pre", "section", "table", "td", "th", "tr",
        "ul",
    )
)  # fmt: skip

Extract = Callable[[str, "str | None", "str | None"], str]


class RunnerUnavailable(RuntimeError):
    """The extractor cannot run here (not installed, or an unknown name)."""


class Runner:
    """One extractor as ``runner(html, url, lang) -> text``.

    ``kind`` is ``"ours"``, ``"other"`` or ``"floor"``; ``version`` the library version;
    ``available`` is False (with ``reason``) when the library is not installed.
    """

    def __init__(
        self,
        name: str,
        kind: str,
        extract: Extract | None,
        version: str | None = None,
        reason: str | None = None,
        site_memory: Any = None,
    ) -> None:
        self.name = name
        self.kind = kind
        self._extract = extract
        self.version = version
        self.reason = reason
        #: the SiteMemory the runner reads its pages with (None: each page alone); each
        #: set's pass starts with it empty (``evaluate_runner``), as a crawl of its own
        self.site_memory = site_memory

    @property
    def available(self) -> bool:
        """True if the extractor can run."""
        return self._extract is not None

    def __repr__(self) -> str:
        state = self.version or "" if self.available else f"unavailable: {self.reason}"
        return f"Runner({self.name!r}, {self.kind}, {state})"

    def __call__(self, html: str, url: str | None = None, lang: str | None = None) -> str:
        """Extract the main text of one decoded page ("" when there is none)."""
        if self._extract is None:
            raise RunnerUnavailable(f"{self.name}: {self.reason}")
        return self._extract(html, url, lang) or ""


#: ``NAME+site_memory``: our extractor ``NAME`` reading each set as a crawl does
SITE_MEMORY_SUFFIX = "site_memory"


def _version(distribution: str) -> str | None:
    try:
        return importlib.metadata.version(distribution)
    except importlib.metadata.PackageNotFoundError:
        return None


#: extractors that ``all`` leaves out, and why: name them to run them
NOT_IN_ALL: dict[str, str] = {
    "lm": "a transformer pass per block, seconds per page (benchmarks/lm_eval.py measures "
    "it on cached vectors)",
}


def our_extractors() -> list[str]:
    """The names of the project's extractors, in registry order, that ``all`` stands for
    (every one but those of :data:`NOT_IN_ALL`)."""
    return [name for name in EXTRACTORS if name not in NOT_IN_ALL]


def chain_runner(spec: Any, name: str | None = None, site_memory: bool = False) -> Runner:
    """The runner for one of our extractors (``spec`` is its name) or for any chain spec,
    reported as ``name``. ``site_memory``: the runner reads its pages as a crawl does,
    with one :class:`~scrapy_boilerplate.site_memory.SiteMemory` of the sites it has read
    (emptied at the start of each set's pass)."""
    from .. import __version__
    from ..extraction import get_extractor
    from ..site_memory import SiteMemory

    extractor = get_extractor(spec)
    if name is None:
        name = spec if isinstance(spec, str) else "custom"
    memory = SiteMemory() if site_memory else None

    def run(html: str, url: str | None, lang: str | None) -> str:
        return extractor.extract(html, url, site_memory=memory).text

    return Runner(name, "ours", run, version=__version__, site_memory=memory)


def _trafilatura() -> Extract:
    import trafilatura

    def run(html: str, url: str | None, lang: str | None) -> str:
        return trafilatura.extract(html) or ""

    return run


def _trafilatura_no_comments() -> Extract:
    import trafilatura

    def run(html: str, url: str | None, lang: str | None) -> str:
        return trafilatura.extract(html, include_comments=False) or ""

    return run


def _readability() -> Extract:
    import lxml.html
    from readability import Document

    def run(html: str, url: str | None, lang: str | None) -> str:
        summary = Document(html).summary()
        root = lxml.html.fromstring(summary)
        for el in root.iter():
            if isinstance(el.tag, str) and el.tag.lower() in _BLOCK_TAGS:
                el.tail = "\n" + (el.tail or "")
        return " ".join(root.text_content().split())

    return run


def _boilerpy3() -> Extract:
    from boilerpy3 import extractors

    def run(html: str, url: str | None, lang: str | None) -> str:
        # a new extractor per page, as the documentation shows (it keeps no state anyway)
        return extractors.ArticleExtractor().get_content(html) or ""

    return run


def _justext() -> Extract:
    import justext

    available = set(justext.get_stoplists())
    stoplists: dict[str, Any] = {}

    def stoplist(lang: str | None) -> Any:
        code = (lang or "").lower().replace("_", "-").split("-")[0]
        name = JUSTEXT_LANGUAGES.get(code, "English")
        if name not in available:
            name = "English"
        if name not in stoplists:
            stoplists[name] = justext.get_stoplist(name)
        return stoplists[name]

    def run(html: str, url: str | None, lang: str | None) -> str:
        paragraphs = justext.justext(html, stoplist(lang))
        return "\n\n".join(p.text for p in paragraphs if not p.is_boilerplate)

    return run


def _resiliparse() -> Extract:
    from resiliparse.extract.html2text import extract_plain_text

    def run(html: str, url: str | None, lang: str | None) -> str:
        return extract_plain_text(html, main_content=True) or ""

    return run


def _lxml_floor() -> Extract:
    from lxml import etree

    def run(html: str, url: str | None, lang: str | None) -> str:
        try:
            etree.fromstring(html, etree.HTMLParser())
        except ValueError:  # a str with an XML encoding declaration: parse its UTF-8 bytes
            etree.fromstring(html.encode("utf-8", "replace"), etree.HTMLParser(encoding="utf-8"))
        return ""

    return run


# name -> (loader, distribution whose version is reported)
_OTHERS: dict[str, tuple[Callable[[], Extract], str]] = {
    "trafilatura": (_trafilatura, "trafilatura"),
    "trafilatura_no_comments": (_trafilatura_no_comments, "trafilatura"),
    "readability": (_readability, "readability-lxml"),
    "boilerpy3": (_boilerpy3, "boilerpy3"),
    "justext": (_justext, "jusText"),
    "resiliparse": (_resiliparse, "resiliparse"),
    FLOOR: (_lxml_floor, "lxml"),
}
_ALIASES = {"readability-lxml": "readability", "jusText": "justext", "boilerpipe3": "boilerpy3"}


def get_runner(name: str) -> Runner:
    """The runner for one of our extractors, another extractor, or ``lxml`` (the floor).

    An extractor that is not installed gives an unavailable runner (``runner.reason`` says
    why); an unknown name raises :class:`RunnerUnavailable`.
    """
    name = _ALIASES.get(name, name)
    if name in EXTRACTORS:
        return chain_runner(name)
    base, _, suffix = name.partition("+")
    if suffix == SITE_MEMORY_SUFFIX and base in EXTRACTORS:  # as a crawl reads a set
        return chain_runner(base, name, site_memory=True)
    if name not in _OTHERS:
        known = ", ".join([*EXTRACTORS, *OTHER_EXTRACTORS, FLOOR])
        raise RunnerUnavailable(f"unknown extractor {name!r} (known: {known})")
    loader, distribution = _OTHERS[name]
    kind = "floor" if name == FLOOR else "other"
    try:
        extract = loader()
    except ImportError as exc:
        return Runner(name, kind, None, reason=f"not installed ({exc})")
    return Runner(name, kind, extract, version=_version(distribution))
