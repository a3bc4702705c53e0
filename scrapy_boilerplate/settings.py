"""The ``BOILERPLATE_*`` settings: their defaults, and reading and checking them.

Every Scrapy component of this package reads its configuration through
:func:`load_config`, once, when Scrapy builds the component (after the spider's
``custom_settings`` are merged). A wrong value raises :class:`BoilerplateSettingError`
naming the setting, so a misconfigured crawl stops before it requests anything, instead
of failing once per page. ``BOILERPLATE_ENABLED = False`` raises ``NotConfigured``.

The reference of every setting is ``docs/settings.md``.
"""

from __future__ import annotations

import functools
import json
import os
import pickle
import warnings
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from scrapy.exceptions import NotConfigured, ScrapyDeprecationWarning

from .errors import BoilerplateError, ChainSpecError
from .extraction import OUTPUTS, Extractor, get_extractor
from .registry import DEFAULT_EXTRACTOR
from .site_memory import MAX_SITES
from .spec import decode_spec

__all__ = [
    "DEFAULTS",
    "ITEM_PRESETS",
    "OUTPUT_FORMATS",
    "BoilerplateConfig",
    "BoilerplateSettingError",
    "load_config",
]

#: the defaults of every setting (Scrapy's own settings object does not hold them)
DEFAULTS: dict[str, Any] = {
    "BOILERPLATE_ENABLED": True,
    "BOILERPLATE_EXTRACTOR": DEFAULT_EXTRACTOR,
    "BOILERPLATE_CHAIN": None,  # deprecated: BOILERPLATE_EXTRACTOR takes any spec
    "BOILERPLATE_DOMAIN_EXTRACTORS": {},
    "BOILERPLATE_TEXT_FIELD": "main_text",
    "BOILERPLATE_TITLE_FIELD": "title",
    "BOILERPLATE_ITEM_PRESET": None,
    "BOILERPLATE_HTML_FIELD": None,
    "BOILERPLATE_FIELDS": {},
    "BOILERPLATE_OVERWRITE": False,
    "BOILERPLATE_MAX_BYTES": 5 * 1024 * 1024,
    "BOILERPLATE_TIMEOUT": 10.0,
    "BOILERPLATE_ALLOWED_IMPORTS": [],
    "BOILERPLATE_OUTPUT_FORMAT": "text",
    "BOILERPLATE_WORKERS": None,  # 4 threads, or usable_cpus() - 1 processes (at least 1)
    "BOILERPLATE_EXECUTOR": "thread",
    "BOILERPLATE_SITE_MEMORY": MAX_SITES,  # sites whose template the crawl remembers; 0: off
    "BOILERPLATE_WAITING_RESPONSES": None,  # CONCURRENT_REQUESTS; 0: they keep their slot
}

#: item field names by preset: (text field, title field)
ITEM_PRESETS: dict[str, tuple[str, str | None]] = {
    "default": ("main_text", "title"),
    # zyte-common-items' Article: articleBody is the clean text; headline, articleBodyHtml,
    # dates, authors, ... come from the article's metadata (see _scrapy/results.py)
    "zyte": ("articleBody", "headline"),
    # zyte-common-items' PageContent: itemMain is the main text, title the <title>
    "zyte_page_content": ("itemMain", "title"),
}
#: presets that fill fields from the article's metadata (the [article] extra)
METADATA_PRESETS = frozenset({"zyte", "zyte_page_content"})

#: what the text field of an item receives: the plain text, Markdown, a clean HTML
#: fragment, or Extraction.to_dict()
OUTPUT_FORMATS = ("text", "markdown", "html", "json")

#: BOILERPLATE_WORKERS when unset and the executor is "thread"
DEFAULT_THREADS = 4

#: where extractions run when BOILERPLATE_WORKERS > 0
EXECUTORS = ("thread", "process")

#: the request.meta key this package reads: per-request overrides (docs/meta.md)
META_KEY = "boilerplate"
#: the request.meta key this package writes: the result (``Extraction.to_dict()``)
RESULT_KEY = "boilerplate_result"


def usable_cpus() -> int:
    """The CPU cores this process may run on (its affinity where the OS tells)."""
    try:
        return len(os.sched_getaffinity(0)) or 1
    except AttributeError:  # not Linux
        return os.cpu_count() or 1


class BoilerplateSettingError(BoilerplateError, ValueError):
    """A ``BOILERPLATE_*`` setting has a wrong value; the message names the setting.

    Raised when Scrapy builds the components, so the crawl stops before any request.
    """


@dataclass(frozen=True)
class BoilerplateConfig:
    """The checked ``BOILERPLATE_*`` settings of one crawler."""

    extractor: Extractor
    domain_extractors: tuple[tuple[str, Extractor], ...]
    text_field: str
    title_field: str | None
    html_field: str | None
    overwrite: bool
    max_bytes: int  # 0: no limit
    timeout: float | None  # seconds per page; None: no limit
    output_format: str
    workers: int  # 0: extract on the reactor thread
    executor: str = "thread"  # or "process"
    allowed_imports: tuple[str, ...] = ()  # module prefixes meta specs may import from
    preset: str = "default"  # BOILERPLATE_ITEM_PRESET
    #: BOILERPLATE_FIELDS: further (item field, source) pairs
    fields: tuple[tuple[str, str], ...] = ()
    #: BOILERPLATE_SITE_MEMORY: sites whose template the crawl remembers (0: none)
    site_memory: int = 0
    #: BOILERPLATE_WAITING_RESPONSES: responses that may wait for their extraction
    #: without holding a CONCURRENT_REQUESTS slot (0: none)
    waiting_responses: int = 0

    @functools.cached_property  # asked for on every response; the settings do not change
    def formats(self) -> tuple[str, ...]:
        """What each extraction makes besides the text: the rendering the text field
        gets, and for the zyte presets the article's HTML and metadata."""
        formats = [self.output_format] if self.output_format in ("markdown", "html") else []
        if self.preset == "zyte":
            formats.append("html")  # articleBodyHtml
        if self.preset in METADATA_PRESETS:
            formats.append("metadata")
        for _, source in self.fields:
            formats.append(source.split(".", 1)[0])
        wanted = [f for f in formats if f in OUTPUTS]
        return tuple(dict.fromkeys(wanted))

    def extractor_for(self, host: str | None) -> Extractor:
        """The extractor for a host name: the longest matching ``DOMAIN_EXTRACTORS`` key
        (the domain itself or any subdomain of it), else the crawl's extractor."""
        if host and self.domain_extractors:
            host = host.lower().rstrip(".")
            for domain, extractor in self.domain_extractors:  # longest first
                if host == domain or host.endswith("." + domain):
                    return extractor
        return self.extractor

    def extractor_for_url(self, url: str | None) -> Extractor:
        if not url or not self.domain_extractors:
            return self.extractor
        try:
            host = urlsplit(url).hostname
        except ValueError:
            host = None
        return self.extractor_for(host)


def _get(settings: Any, name: str) -> Any:
    value = settings.get(name)
    if value is None and name not in settings:
        return DEFAULTS[name]
    return value


def _bool(settings: Any, name: str) -> bool:
    value = _get(settings, name)
    if isinstance(value, bool):
        return value
    if isinstance(value, int) and value in (0, 1):
        return bool(value)
    if isinstance(value, str):
        low = value.strip().lower()
        if low in ("1", "true", "yes", "on"):
            return True
        if low in ("0", "false", "no", "off", ""):
            return False
    raise BoilerplateSettingError(f"{name} must be True or False, not {value!r}")


def _int(settings: Any, name: str, minimum: int = 0) -> int:
    value = _get(settings, name)
    if value is None:
        return 0
    try:
        if isinstance(value, bool) or (isinstance(value, float) and not value.is_integer()):
            raise ValueError
        number = int(value)
    except (TypeError, ValueError):
        raise BoilerplateSettingError(f"{name} must be a whole number, not {value!r}") from None
    if number < minimum:
        raise BoilerplateSettingError(f"{name} must be {minimum} or more, not {number}")
    return number


def _seconds(settings: Any, name: str) -> float | None:
    value = _get(settings, name)
    if value is None or value == 0:
        return None
    try:
        if isinstance(value, bool):
            raise ValueError
        seconds = float(value)
    except (TypeError, ValueError):
        raise BoilerplateSettingError(
            f"{name} must be a number of seconds, not {value!r}"
        ) from None
    if not seconds > 0 or seconds == float("inf"):
        raise BoilerplateSettingError(
            f"{name} must be above 0 (or 0 / None: no limit), not {value!r}"
        )
    return seconds


def _module_prefixes(settings: Any, name: str) -> tuple[str, ...]:
    value = decode_spec(_get(settings, name))
    if value is None or value == "":
        return ()
    if isinstance(value, str):
        value = [part for part in value.split(",")]
    if not isinstance(value, (list, tuple)) or not all(isinstance(v, str) for v in value):
        raise BoilerplateSettingError(f"{name} must be a list of module names, not {value!r}")
    prefixes = tuple(v.strip() for v in value if v.strip())
    for prefix in prefixes:
        if not all(part.isidentifier() for part in prefix.split(".")):
            raise BoilerplateSettingError(f"{name}: {prefix!r} is not a module name")
    return prefixes


def _field(settings: Any, name: str, default: str | None, optional: bool) -> str | None:
    if name not in settings or settings.get(name) is None and not optional:
        return default
    value = settings.get(name)
    if value is None or value == "":
        if optional:
            return None
        raise BoilerplateSettingError(f"{name} must name an item field, not {value!r}")
    if not isinstance(value, str) or not value.strip():
        raise BoilerplateSettingError(f"{name} must name an item field (a string), not {value!r}")
    return value.strip()


#: what BOILERPLATE_FIELDS may put on items: a result key, or one metadata field
FIELD_SOURCES = (
    "text",
    "title",
    "markdown",
    "html",
    "metadata",
    "comments",
    "reason",
    "extractor",
)


def _fields(settings: Any) -> tuple[tuple[str, str], ...]:
    name = "BOILERPLATE_FIELDS"
    value = _get(settings, name) or {}
    if isinstance(value, str):
        try:
            value = json.loads(value)
        except ValueError as exc:
            raise BoilerplateSettingError(f"{name} must be a dict (or its JSON): {exc}") from exc
    if not isinstance(value, dict):
        raise BoilerplateSettingError(f"{name} must map item fields to sources, not {value!r}")
    from .metadata import METADATA_FIELDS

    pairs = []
    for field, source in value.items():
        if not isinstance(field, str) or not field.strip():
            raise BoilerplateSettingError(f"{name}: {field!r} is not an item field name")
        head, _, key = str(source).partition(".")
        if head not in FIELD_SOURCES or (
            key and (head != "metadata" or key not in METADATA_FIELDS)
        ):
            raise BoilerplateSettingError(
                f"{name}[{field!r}]: {source!r} is not a source; use one of "
                f"{', '.join(FIELD_SOURCES)}, or metadata.<field> ({', '.join(METADATA_FIELDS)})"
            )
        if head == "metadata":
            _require_metadata(f"{name}[{field!r}]")
        pairs.append((field.strip(), str(source)))
    return tuple(pairs)


def _require_metadata(setting: str) -> None:
    """Stop the crawl at its start, naming ``setting``, if it needs the article's metadata
    and the ``[article]`` extra is not installed."""
    from .metadata import MetadataUnavailableError, require_metadata

    try:
        require_metadata()
    except MetadataUnavailableError as exc:
        raise BoilerplateSettingError(f"{setting}: {exc}") from exc


def build_extractor(spec: Any, setting: str) -> Extractor:
    """An extractor for a spec taken from ``setting``; a bad spec raises
    :class:`BoilerplateSettingError` naming the setting and the bad entry."""
    spec = decode_spec(spec)
    if spec is None or spec == "" or spec == [] or spec == {}:
        raise BoilerplateSettingError(f"{setting} is empty: name an extractor or a chain")
    try:
        return get_extractor(spec)
    except ChainSpecError as exc:  # its message names the bad entry: no chained traceback
        raise BoilerplateSettingError(f"{setting}: {exc}") from None
    except Exception as exc:  # a user filter whose constructor fails, say
        raise BoilerplateSettingError(
            f"{setting}: building the chain failed: {type(exc).__name__}: {exc}"
        ) from exc


def _main_extractor(settings: Any) -> Extractor:
    extractor = settings.get("BOILERPLATE_EXTRACTOR")
    chain = settings.get("BOILERPLATE_CHAIN")
    if chain in (None, "", [], {}):
        if extractor is None:
            extractor = DEFAULTS["BOILERPLATE_EXTRACTOR"]
        return build_extractor(extractor, "BOILERPLATE_EXTRACTOR")
    warnings.warn(
        "BOILERPLATE_CHAIN is deprecated: BOILERPLATE_EXTRACTOR takes the same specs "
        "(names, lists of filters, import paths); set BOILERPLATE_EXTRACTOR instead",
        ScrapyDeprecationWarning,
        stacklevel=3,
    )
    if extractor is not None and _priority(settings, "BOILERPLATE_EXTRACTOR") > _priority(
        settings, "BOILERPLATE_CHAIN"
    ):
        # e.g. a spider's custom_settings EXTRACTOR beats a project-wide CHAIN
        return build_extractor(extractor, "BOILERPLATE_EXTRACTOR")
    return build_extractor(chain, "BOILERPLATE_CHAIN")


def _priority(settings: Any, name: str) -> int:
    getpriority = getattr(settings, "getpriority", None)
    if getpriority is None:
        return 0
    return getpriority(name) or 0


def _domain_extractors(settings: Any) -> tuple[tuple[str, Extractor], ...]:
    name = "BOILERPLATE_DOMAIN_EXTRACTORS"
    value = decode_spec(_get(settings, name))
    if value is None:
        return ()
    if hasattr(value, "copy_to_dict"):  # a scrapy BaseSettings
        value = value.copy_to_dict()
    if not isinstance(value, Mapping):
        raise BoilerplateSettingError(
            f"{name} must be a dict of domain -> extractor name or chain, not {value!r}"
        )
    out: list[tuple[str, Extractor]] = []
    for domain, spec in value.items():
        if not isinstance(domain, str) or not domain.strip():
            raise BoilerplateSettingError(f"{name}: {domain!r} is not a domain name")
        key = domain.strip().lower().lstrip(".").rstrip(".")
        if "/" in key or ":" in key or " " in key or not key:
            raise BoilerplateSettingError(
                f"{name}: {domain!r} is not a domain name (write 'example.com', without "
                "scheme, port or path)"
            )
        out.append((key, build_extractor(spec, f"{name}[{domain!r}]")))
    out.sort(key=lambda pair: len(pair[0]), reverse=True)
    return tuple(out)


def load_config(settings: Any) -> BoilerplateConfig:
    """Read and check the ``BOILERPLATE_*`` settings.

    Raises ``NotConfigured`` if ``BOILERPLATE_ENABLED`` is false, and
    :class:`BoilerplateSettingError` (naming the setting) for a wrong value.
    """
    if not _bool(settings, "BOILERPLATE_ENABLED"):
        raise NotConfigured("BOILERPLATE_ENABLED is False")
    preset_name = _get(settings, "BOILERPLATE_ITEM_PRESET")
    if preset_name in (None, ""):
        preset_name = "default"
    if preset_name not in ITEM_PRESETS:
        raise BoilerplateSettingError(
            f"BOILERPLATE_ITEM_PRESET must be one of {', '.join(map(repr, ITEM_PRESETS))}, "
            f"not {preset_name!r}"
        )
    if preset_name in METADATA_PRESETS:
        _require_metadata(f"BOILERPLATE_ITEM_PRESET = {preset_name!r}")
    preset_text, preset_title = ITEM_PRESETS[preset_name]
    text_field = _field(settings, "BOILERPLATE_TEXT_FIELD", preset_text, optional=False)
    title_field = _field(settings, "BOILERPLATE_TITLE_FIELD", preset_title, optional=True)
    html_field = _field(settings, "BOILERPLATE_HTML_FIELD", None, optional=True)
    output_format = _get(settings, "BOILERPLATE_OUTPUT_FORMAT") or "text"
    if isinstance(output_format, str):
        output_format = output_format.strip().lower()
    if output_format not in OUTPUT_FORMATS:
        raise BoilerplateSettingError(
            f"BOILERPLATE_OUTPUT_FORMAT must be one of {', '.join(map(repr, OUTPUT_FORMATS))}, "
            f"not {output_format!r}"
        )
    assert text_field is not None
    executor = _get(settings, "BOILERPLATE_EXECUTOR") or "thread"
    if isinstance(executor, str):
        executor = executor.strip().lower()
    if executor not in EXECUTORS:
        raise BoilerplateSettingError(
            f"BOILERPLATE_EXECUTOR must be one of {', '.join(map(repr, EXECUTORS))}, "
            f"not {executor!r}"
        )
    extractor = _main_extractor(settings)
    domain_extractors = _domain_extractors(settings)
    if _get(settings, "BOILERPLATE_WORKERS") is None:
        workers = max(1, usable_cpus() - 1) if executor == "process" else DEFAULT_THREADS
    else:
        workers = _int(settings, "BOILERPLATE_WORKERS")
    if executor == "process" and workers:
        _check_picklable(extractor, "BOILERPLATE_EXTRACTOR")
        for domain, domain_extractor in domain_extractors:
            _check_picklable(domain_extractor, f"BOILERPLATE_DOMAIN_EXTRACTORS[{domain!r}]")
    return BoilerplateConfig(
        extractor=extractor,
        domain_extractors=domain_extractors,
        text_field=text_field,
        title_field=title_field,
        html_field=html_field,
        overwrite=_bool(settings, "BOILERPLATE_OVERWRITE"),
        max_bytes=_int(settings, "BOILERPLATE_MAX_BYTES"),
        timeout=_seconds(settings, "BOILERPLATE_TIMEOUT"),
        allowed_imports=_module_prefixes(settings, "BOILERPLATE_ALLOWED_IMPORTS"),
        output_format=output_format,
        workers=workers,
        executor=executor,
        preset=preset_name,
        fields=_fields(settings),
        site_memory=_site_memory(settings),
        waiting_responses=_waiting_responses(settings),
    )


def _waiting_responses(settings: Any) -> int:
    """BOILERPLATE_WAITING_RESPONSES: a number of responses; unset, Scrapy's
    CONCURRENT_REQUESTS (at most twice as many responses in memory as without it)."""
    if _get(settings, "BOILERPLATE_WAITING_RESPONSES") is None:
        try:
            return max(0, int(settings.get("CONCURRENT_REQUESTS") or 16))
        except (TypeError, ValueError):  # Scrapy reports a bad CONCURRENT_REQUESTS itself
            return 0
    return _int(settings, "BOILERPLATE_WAITING_RESPONSES")


def _site_memory(settings: Any) -> int:
    """BOILERPLATE_SITE_MEMORY: a number of sites (0 or False: no memory; True: the
    default number)."""
    value = _get(settings, "BOILERPLATE_SITE_MEMORY")
    if isinstance(value, str) and value.strip().lower() in ("true", "false"):
        value = value.strip().lower() == "true"
    if isinstance(value, bool):
        return MAX_SITES if value else 0
    return _int(settings, "BOILERPLATE_SITE_MEMORY") if value is not None else 0


def _check_picklable(extractor: Extractor, setting: str) -> None:
    try:
        pickle.dumps(extractor)
    except Exception as exc:
        raise BoilerplateSettingError(
            f"{setting}: with BOILERPLATE_EXECUTOR = 'process' the chain must pickle, to "
            f"reach the worker processes; it does not ({type(exc).__name__}: {exc}). Define "
            "your filters at module level in an importable module."
        ) from None
