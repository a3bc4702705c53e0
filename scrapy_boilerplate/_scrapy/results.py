"""The result of one response or item: the small dict kept in ``meta``, the stats it
counts and the item fields it gives."""

from __future__ import annotations

from typing import Any

from ..settings import BoilerplateConfig

__all__ = [
    "EXTRACTION_KEYS",
    "SKIP_REASONS",
    "count_result",
    "error_result",
    "is_result",
    "item_values",
    "skipped_result",
]

#: reasons for not extracting a response (``boilerplate/skipped/{reason}``)
SKIP_REASONS = ("disabled", "non_html", "status", "too_large")

#: the keys of Extraction.to_dict(), i.e. what ``BOILERPLATE_OUTPUT_FORMAT = "json"`` gives
EXTRACTION_KEYS = ("url", "title", "text", "extractor", "reason", "warnings", "timings")


def skipped_result(reason: str, url: str | None) -> dict[str, Any]:
    """The result of a response that was not extracted (``reason`` in SKIP_REASONS)."""
    return {
        "url": url,
        "title": None,
        "text": "",
        "extractor": None,
        "reason": reason,
        "warnings": [],
        "timings": {},
        "ms": 0.0,
        "skipped": True,
    }


def error_result(exc: BaseException, url: str | None, extractor: str | None) -> dict[str, Any]:
    """The result of a page whose extraction raised: empty, with the exception named."""
    return {
        "url": url,
        "title": None,
        "text": "",
        "extractor": extractor,
        "reason": "error",
        "warnings": [],
        "timings": {},
        "ms": 0.0,
        "skipped": False,
        "error": f"{type(exc).__name__}: {exc}"[:300],
    }


def is_result(value: Any) -> bool:
    """True if ``value`` is a result dict this package wrote (not a dict of overrides)."""
    return isinstance(value, dict) and "text" in value and "skipped" in value


def count_result(stats: Any, result: dict[str, Any]) -> None:
    """Count an extraction result (not a skip) in the ``boilerplate/...`` stats."""
    if result.get("reason") == "error":
        error = str(result.get("error", "Exception")).split(":", 1)[0]
        stats.inc_value("boilerplate/error_count")
        stats.inc_value(f"boilerplate/error_count/{error}")
    elif result.get("text"):
        stats.inc_value("boilerplate/extracted_count")
        stats.inc_value("boilerplate/text_chars", len(result["text"]))
    else:
        stats.inc_value("boilerplate/empty_count")
        stats.inc_value(f"boilerplate/empty/{result.get('reason') or 'no_content'}")
    ms = result.get("ms")
    if ms:
        stats.max_value("boilerplate/max_ms", ms)


def item_values(result: dict[str, Any], config: BoilerplateConfig) -> dict[str, Any]:
    """The item fields a result gives.

    Text format: the text field only when main text was found (so that the field's
    coverage, e.g. in Spidermon, measures extraction success), the title field when the
    page has a title. JSON format: the text field always gets the ``Extraction.to_dict()``
    view, which says why it is empty when it is.
    """
    values: dict[str, Any] = {}
    if config.output_format == "json":
        values[config.text_field] = {key: result.get(key) for key in EXTRACTION_KEYS}
    elif result.get("text"):
        values[config.text_field] = result["text"]
    if config.title_field and result.get("title"):
        values[config.title_field] = result["title"]
    return values
