"""Putting extracted values on items of any kind itemadapter supports."""

from __future__ import annotations

import functools
import logging
import types
import typing
from collections.abc import Collection
from typing import Any

from itemadapter import ItemAdapter

from .log import OnceLogger

__all__ = ["ItemFiller"]


class ItemFiller:
    """Puts extraction fields on items of any kind itemadapter supports.

    A field the item class does not declare is counted (``boilerplate/item_field_missing``)
    and warned about once per class and field, never raised; a non-empty value already on
    the item is kept unless ``overwrite``.
    """

    def __init__(self, crawler: Any, overwrite: bool, logger: logging.Logger) -> None:
        self.crawler = crawler
        self.overwrite = overwrite
        self.once = OnceLogger(logger, crawler)

    def fill(self, item: Any, values: dict[str, Any], optional: Collection[str] = ()) -> bool:
        """Set ``values`` on ``item``; True if at least one field was set. A field in
        ``optional`` that the item does not declare is left out without a word (the
        zyte presets' extra fields, on an item class that has only some of them)."""
        if not values:
            return False
        stats = self.crawler.stats
        adapter = ItemAdapter(item)
        filled = False
        missing: list[str] = []
        cls = type(item)
        for field, value in values.items():
            try:
                existing = adapter.get(field)
            except Exception:  # an adapter that cannot even read: treat as unset
                existing = None
            if existing and not self.overwrite:
                stats.inc_value("boilerplate/item_field_kept")
                continue
            try:
                adapter[field] = as_declared(cls, field, value)
            except KeyError:
                if field in optional:
                    continue
                missing.append(field)
                stats.inc_value("boilerplate/item_field_missing")
            except Exception as exc:  # frozen dataclass, validating model, ...
                stats.inc_value("boilerplate/error_count")
                stats.inc_value(f"boilerplate/error_count/{type(exc).__name__}")
                self.once(
                    ("set_error", cls, field, type(exc)),
                    logging.WARNING,
                    "Cannot set %r on %s items: %s: %s (warned once per class)",
                    field,
                    _class_name(cls),
                    type(exc).__name__,
                    exc,
                )
            else:
                filled = True
        if missing:
            self.once(
                ("missing", cls),
                logging.WARNING,
                "%s items have no field %s, so the extracted value was not stored. Declare "
                "the field, or point BOILERPLATE_TEXT_FIELD / BOILERPLATE_TITLE_FIELD (or "
                "BOILERPLATE_ITEM_PRESET) at fields the item has. (Warned once per class; "
                "counted in boilerplate/item_field_missing.)",
                _class_name(cls),
                " nor ".join(repr(f) for f in missing),
            )
        if filled:
            stats.inc_value("boilerplate/item_filled_count")
        return filled


def as_declared(cls: type, field: str, value: Any) -> Any:
    """``value`` in the type ``cls`` declares for ``field``, where that type reads dicts:
    zyte-common-items' ``Article`` declares ``authors: list[Author] | None`` and
    ``mainImage: Image | None``, and itemadapter sets a plain dict or list of dicts as
    it is (only ``metadata`` has a converter). So the ``{"name": ...}`` author and the
    ``{"url": ...}`` image become ``Author`` and ``Image`` objects on such items, by the
    class's own ``from_dict`` / ``from_list``, and stay dicts on any other item."""
    if not isinstance(value, (dict, list)):
        return value
    reader = _dict_reader(cls, field)
    if reader is None:
        return value
    is_list, target = reader
    if is_list and isinstance(value, list) and all(isinstance(v, dict) for v in value):
        return target.from_list(value)
    if not is_list and isinstance(value, dict):
        return target.from_dict(value)
    return value


@functools.lru_cache(maxsize=256)
def _dict_reader(cls: type, field: str) -> tuple[bool, type] | None:
    """(a list of it?, the class) where ``cls`` annotates ``field`` as a class with
    ``from_dict`` (optionally in a list, optionally ``None``); else None."""
    try:
        hint = typing.get_type_hints(cls).get(field)
    except Exception:  # unresolvable annotations: set values as they are
        return None
    is_list = False
    for _ in range(3):  # Optional[...] / X | None, then list[...]
        origin = typing.get_origin(hint)
        if origin in (typing.Union, types.UnionType):
            options = [a for a in typing.get_args(hint) if a is not type(None)]
            if len(options) != 1:
                return None
            hint = options[0]
        elif origin is list and not is_list:
            is_list, hint = True, typing.get_args(hint)[0]
        else:
            break
    if isinstance(hint, type) and callable(getattr(hint, "from_dict", None)):
        if not is_list or callable(getattr(hint, "from_list", None)):
            return is_list, hint
    return None


def _class_name(cls: type) -> str:
    return f"{cls.__module__}.{cls.__qualname__}"
