"""The exceptions this package raises on purpose."""

from __future__ import annotations

__all__ = ["BoilerplateError", "ChainSpecError", "ExtractionTimeout", "ModelUnavailableError"]


class BoilerplateError(Exception):
    """Base class of every error scrapy-boilerplate raises on purpose."""


class ChainSpecError(BoilerplateError, ValueError):
    """A chain or extractor spec (a setting, or an argument of ``get_extractor``) is wrong.

    Raised when the chain is built, never per page; the message names the bad entry.
    """


class ModelUnavailableError(BoilerplateError, RuntimeError):
    """A neural filter was asked for but its runtime or model file is missing."""


class ExtractionTimeout(BoilerplateError, TimeoutError):
    """A page's extraction ran past its time budget.

    Raised inside the engine at its checkpoints (after parsing, between filters, inside the
    slower filters); ``Extractor.extract`` turns it into an empty result with
    ``reason="timeout"``, so callers of the API never see it.
    """
