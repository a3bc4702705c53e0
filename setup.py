"""Metadata is in setup.cfg. This file only adds the optional compiled hot loops.

Each module listed in ``scrapy_boilerplate/_compiled.py`` (``TWINNED``) has a compiled
twin, ``_c<name>.pyx`` beside it, built when Cython and a C compiler are at hand (the
build requirements in pyproject.toml bring Cython and lxml's headers); if that fails, or
``SCRAPY_BOILERPLATE_PURE_PYTHON=1`` is set, the package installs as pure Python and uses
the Python code the twins mirror.
"""

import importlib.util
import os
from pathlib import Path

from setuptools import Extension, setup

HERE = Path(__file__).resolve().parent


def _twins() -> list[str]:
    """The compiled twins' module names, from the one list in _compiled.py (read by path:
    nothing of the package's dependencies is installed yet)."""
    spec = importlib.util.spec_from_file_location(
        "_scrapy_boilerplate_compiled", HERE / "scrapy_boilerplate" / "_compiled.py"
    )
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return [f"scrapy_boilerplate.{module.twin_name(name)}" for name in module.TWINNED]


def extensions() -> list:
    """The twins to build, each optional: without a C compiler (or when Cython cannot
    translate one) the install goes on as pure Python."""
    if os.environ.get("SCRAPY_BOILERPLATE_PURE_PYTHON"):
        return []
    try:
        import lxml
        from Cython.Build import cythonize
    except ImportError:
        return []
    extensions = [
        Extension(name, [name.replace(".", "/") + ".pyx"], include_dirs=lxml.get_include())
        for name in _twins()
    ]
    try:
        built = cythonize(extensions, compiler_directives={"language_level": 3}, quiet=True)
    except Exception as exc:  # noqa: BLE001 - a twin Cython cannot translate: pure Python
        print(f"scrapy-boilerplate: not compiling the hot loops ({exc}); pure Python")
        return []
    for extension in built:  # cythonize() makes new Extension objects: mark them here
        extension.optional = True
    return built


setup(ext_modules=extensions())
