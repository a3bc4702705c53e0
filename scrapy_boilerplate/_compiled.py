"""The optional compiled twins of the hot loops (Cython modules built at install).

Each twin mirrors functions of one pure-Python module, which keeps them: ``parse.py`` has
``_cparse.pyx``, ``filters/density/cetr.py`` has ``filters/density/_ccetr.pyx`` (a twin is
named ``_c`` + its original's name). :data:`TWINNED` lists the originals, once: setup.py
builds their twins from it, and the tests compare each pair. A module uses its twin's
functions when the twin was built and ``SCRAPY_BOILERPLATE_PURE_PYTHON`` is not set.

In a source checkout (a ``.pyx`` beside its build), a twin built before the last edit of
its original or of its ``.pyx`` is stale: edits to the Python code would silently do
nothing, so importing it warns (an error in the test suite) until ``pip install -e .``
builds it again.

Imports nothing but the standard library: setup.py reads this file before anything else
is installed.
"""

from __future__ import annotations

import importlib
import importlib.util
import os
import warnings
from pathlib import Path
from typing import Any

__all__ = ["TWINNED", "is_stale", "twin_name", "use_twin"]

#: the modules that have a compiled twin (relative to the package)
TWINNED: tuple[str, ...] = (
    "limits",
    "metadata.bylines",
    "neko",
    "parse",
    "words",
    "filters.comments",
    "filters.density._dom",
    "filters.density.cetr",
    "neural.structure",
    "neural.textstats",
    "neural.assemble",
    "neural.viterbi",
    "neural.boosted_features",
)

# a checkout (setup.py beside the package), where the twins are built in place
_IN_SOURCE_TREE = (Path(__file__).resolve().parents[1] / "setup.py").is_file()


def twin_name(module: str) -> str:
    """The compiled twin's module name of ``module`` (dotted, either relative to the
    package or absolute): ``_c`` + its last part, without a leading underscore."""
    parent, _, last = module.rpartition(".")
    return f"{parent}.{'_c' + last.lstrip('_')}" if parent else "_c" + last.lstrip("_")


def is_stale(compiled_file: Path, sources: list[Path]) -> bool:
    """True if any of ``sources`` (that exists) was changed after ``compiled_file``."""
    built = compiled_file.stat().st_mtime
    return any(s.exists() and s.stat().st_mtime > built for s in sources)


def use_twin(namespace: dict[str, Any], *names: str) -> bool:
    """Rebind ``names`` in a module's ``namespace`` (its ``globals()``, where they are
    the Python twins) to the compiled twin's functions of the same names, and say whether
    it did: False when the twin is not built (no C compiler at install) or
    ``SCRAPY_BOILERPLATE_PURE_PYTHON`` is set. The module keeps the result as its
    ``COMPILED``."""
    if os.environ.get("SCRAPY_BOILERPLATE_PURE_PYTHON"):
        return False
    module = namespace["__name__"]
    twin = twin_name(module)
    try:
        compiled = importlib.import_module(twin)
        functions = [getattr(compiled, name) for name in names]
    except (ImportError, AttributeError):
        return False
    _warn_if_stale(module, twin, compiled)
    namespace.update(zip(names, functions, strict=True))
    return True


def _warn_if_stale(module: str, twin: str, compiled: Any) -> None:
    if not _IN_SOURCE_TREE:  # installed: files are as old as the install made them
        return
    compiled_file = Path(compiled.__file__)
    pyx = compiled_file.with_name(twin.rpartition(".")[2] + ".pyx")
    if not pyx.exists():
        return
    spec = importlib.util.find_spec(module)
    sources = [pyx, *Path(__file__).parent.glob("*.pxd")]  # the twins' shared helpers
    if spec and spec.origin:
        sources.append(Path(spec.origin))
    if is_stale(compiled_file, sources):
        warnings.warn(
            f"{twin} was built before the last change to {module} or its .pyx (.pxd): the "
            "compiled code runs, edits to the Python twin do nothing. Rebuild it with "
            "`pip install -e .` (or set SCRAPY_BOILERPLATE_PURE_PYTHON=1).",
            RuntimeWarning,
            stacklevel=3,
        )
