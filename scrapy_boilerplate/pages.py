"""A scrapy-poet page object for articles (the ``[poet]`` extra): zyte-common-items'
``Article``, filled by our extractor from the page's main content and declarations.

    from scrapy_boilerplate.pages import BoilerplateArticlePage

    class NewsSpider(scrapy.Spider):
        async def parse(self, response, page: BoilerplateArticlePage):
            yield await page.to_item()

Per-site behaviour goes through web-poet rules, as for any page object: a subclass for a
site (another ``extractor``, or any field written by hand) registered with
``@handle_urls("example.com")``, or listed in ``SCRAPY_POET_RULES``.
"""

from __future__ import annotations

from typing import Any, ClassVar

import attrs
from web_poet import field
from web_poet.utils import cached_method
from zyte_common_items import ArticleMetadata, Author, Image
from zyte_common_items.pages import ArticlePage

from .extraction import article_probability, get_extractor
from .registry import DEFAULT_EXTRACTOR
from .site_memory import SiteMemory

__all__ = ["BoilerplateArticlePage"]


@attrs.define
class BoilerplateArticlePage(ArticlePage):
    """An ``Article`` page object: ``articleBody`` and ``articleBodyHtml`` are the main
    content (text, sanitised HTML), the other fields what the page declares (see
    ``scrapy_boilerplate.metadata``); a field the page does not give is None."""

    #: the extractor: a name or chain spec (a per-site subclass may set its own)
    extractor: ClassVar[Any] = DEFAULT_EXTRACTOR
    #: the extraction's time budget per page, in seconds
    timeout: ClassVar[float | None] = 10.0
    #: a memory of each site's template shared by the pages of this class
    #: (``BOILERPLATE_SITE_MEMORY``'s; a subclass may set ``SiteMemory()``); None, the
    #: default: each page alone, a function of its response, as web-poet's fixtures expect
    site_memory: ClassVar[SiteMemory | None] = None

    @cached_method
    def _extraction(self) -> dict[str, Any]:
        result = get_extractor(self.extractor).extract(
            self.response.body,
            str(self.response.url),
            content_type=self.response.headers.get("Content-Type"),
            timeout=self.timeout,
            formats=("html",),
            metadata=True,
            site_memory=self.site_memory,
        )
        return {"text": result.text, "html": result.html, "title": result.title,
                "metadata": result.metadata or {}, "reason": result.reason}  # fmt: skip

    def _meta(self, name: str) -> Any:
        return self._extraction()["metadata"].get(name)

    @field
    def metadata(self) -> ArticleMetadata | None:
        """zyte-common-items' metadata (the download's date, a probability of 1), with
        ``probability`` 0 where the page holds no article: nothing but whitespace, a
        binary body, no text, or text the extractor kept none of (what the library's own
        ``no_item_found`` says), so that its ``DropLowProbabilityItemPipeline`` drops
        it; None where the extraction ran out of time (the page was not read to the end:
        an item of unknown kind, which that pipeline keeps)."""
        # (attrs remakes the class, which a bare super() cannot follow)
        value = ArticlePage.metadata.__get__(self, type(self))
        if value is not None:
            extraction = self._extraction()
            value.probability = article_probability(extraction["text"], extraction["reason"])
        return value

    @field
    def headline(self) -> str | None:
        return self._meta("headline") or self._extraction()["title"]

    @field
    def articleBody(self) -> str | None:  # noqa: N802 - zyte-common-items' field name
        return self._extraction()["text"] or None

    @field
    def articleBodyHtml(self) -> str | None:  # noqa: N802
        return self._extraction()["html"] or None

    @field
    def datePublished(self) -> str | None:  # noqa: N802
        return self._meta("datePublished")

    @field
    def dateModified(self) -> str | None:  # noqa: N802
        return self._meta("dateModified")

    @field
    def authors(self) -> list[Author] | None:
        authors = self._meta("authors")
        return [Author(name=a["name"], nameRaw=a["name"]) for a in authors] if authors else None

    @field
    def inLanguage(self) -> str | None:  # noqa: N802
        return self._meta("inLanguage")

    @field
    def description(self) -> str | None:
        return self._meta("description")

    @field
    def mainImage(self) -> Image | None:  # noqa: N802
        image = self._meta("mainImage")
        return Image(url=image["url"]) if image else None

    @field
    def canonicalUrl(self) -> str | None:  # noqa: N802
        return self._meta("canonicalUrl")
