"""The result of one response or item, the stats it counts and the item fields it gives.

A result is ``Extraction.to_dict()``, one shape for every outcome: extracted, empty, failed
(``reason="error"``) or not extracted (``reason`` in :data:`SKIP_REASONS`); kept in
``meta["boilerplate_result"]`` (docs/meta.md), plain data that pickles.
"""

from __future__ import annotations

from typing import Any

from ..extraction import Extraction, article_probability
from ..settings import BoilerplateConfig

__all__ = [
    "SKIP_REASONS",
    "count_result",
    "error_result",
    "is_skipped",
    "item_values",
    "skipped_result",
]

#: reasons for not extracting a response (``boilerplate/skipped/{reason}``)
SKIP_REASONS = ("disabled", "non_html", "status", "too_large")


def skipped_result(reason: str, url: str | None) -> dict[str, Any]:
    """The result of a response that was not extracted (``reason`` in SKIP_REASONS)."""
    return Extraction.empty(reason, url).to_dict()


def error_result(exc: BaseException, url: str | None, extractor: str | None) -> dict[str, Any]:
    """The result of a page whose extraction raised: empty, with the exception named."""
    error = f"{type(exc).__name__}: {exc}"[:300]
    return Extraction.empty("error", url, extractor, error=error).to_dict()


def is_skipped(result: dict[str, Any]) -> bool:
    """True if the result is of a response that was not extracted."""
    return result.get("reason") in SKIP_REASONS


def count_result(stats: Any, result: dict[str, Any]) -> None:
    """Count an extraction result (not a skip) in the ``boilerplate/...`` stats."""
    reason = result.get("reason")
    if reason == "error":
        error = str(result.get("error", "Exception")).split(":", 1)[0]
        stats.inc_value("boilerplate/error_count")
        stats.inc_value(f"boilerplate/error_count/{error}")
    elif reason == "timeout":
        stats.inc_value("boilerplate/timeout_count")
    elif result.get("text"):
        stats.inc_value("boilerplate/extracted_count")
        stats.inc_value("boilerplate/text_chars", len(result["text"]))
    else:
        stats.inc_value("boilerplate/empty_count")
        stats.inc_value(f"boilerplate/empty/{reason or 'no_content'}")
    for warning in result.get("warnings") or ():
        stats.inc_value(f"boilerplate/warnings/{warning.split(':', 1)[0]}")
    ms = result["timings"].get("total_ms")
    if ms:
        stats.max_value("boilerplate/max_ms", ms)


def item_values(result: dict[str, Any], config: BoilerplateConfig) -> dict[str, Any]:
    """The item fields a result gives.

    Text format (or markdown, html): the text field only when main text was found (so that the field's
    coverage, e.g. in Spidermon, measures extraction success), the title field when the
    page has a title. JSON format: the text field always gets the result itself
    (``Extraction.to_dict()``), which says why it is empty when it is.
    """
    values: dict[str, Any] = {}
    if config.output_format == "json":
        values[config.text_field] = result
    elif result.get("text"):
        # markdown / html: that rendering of the same content
        values[config.text_field] = result.get(config.output_format) or result["text"]
    if config.title_field and result.get("title"):
        values[config.title_field] = result["title"]
    if config.preset == "zyte":
        values.update(_zyte_article(result, config))
    elif config.preset == "zyte_page_content":
        values.update(_zyte_page_content(result))
    for field, source in config.fields:  # BOILERPLATE_FIELDS
        head, _, key = source.partition(".")
        value = result.get(head)
        if key:
            value = (value or {}).get(key)
        if value not in (None, "", [], {}):
            values[field] = value
    return values


#: the fields the zyte presets add when the page has them; an item class without some of
#: them (an Article subset of the user's own) just goes without
PRESET_EXTRA_FIELDS = frozenset(
    {
        "articleBodyHtml",
        "datePublished",
        "dateModified",
        "inLanguage",
        "description",
        "canonicalUrl",
        "authors",
        "mainImage",
        "headline",
        "metadata",
    }
)


def _zyte_article(result: dict[str, Any], config: BoilerplateConfig) -> dict[str, Any]:
    """The fields of zyte-common-items' ``Article`` a result gives, in the types it
    expects (strings, ``{"name": ...}`` authors, a ``{"url": ...}`` image)."""
    meta = result.get("metadata") or {}
    values: dict[str, Any] = {}
    headline = meta.get("headline") or result.get("title")
    if config.title_field and headline:
        values[config.title_field] = headline
    if result.get("text") and result.get("html"):
        values["articleBodyHtml"] = result["html"]
    for field in ("datePublished", "dateModified", "inLanguage", "description", "canonicalUrl"):
        if meta.get(field):
            values[field] = meta[field]
    if meta.get("authors"):
        values["authors"] = [{"name": a["name"], "nameRaw": a["name"]} for a in meta["authors"]]
    if meta.get("mainImage"):
        values["mainImage"] = dict(meta["mainImage"])
    values.update(_probability(result))
    return values


def _zyte_page_content(result: dict[str, Any]) -> dict[str, Any]:
    """The fields of zyte-common-items' ``PageContent`` besides ``itemMain`` and ``title``."""
    meta = result.get("metadata") or {}
    values = {field: meta[field] for field in ("headline", "canonicalUrl") if meta.get(field)}
    values.update(_probability(result))
    return values


def _probability(result: dict[str, Any]) -> dict[str, Any]:
    """``metadata`` as ``{"probability": P}`` where the result says whether the page holds
    main content (``extraction.article_probability``), else nothing."""
    probability = article_probability(result.get("text"), result.get("reason"))
    return {} if probability is None else {"metadata": {"probability": probability}}
