"""Metadata is in setup.cfg. This file only adds the optional compiled segmenter.

``scrapy_boilerplate/_csegment.pyx`` is compiled when Cython and a C compiler are at hand
(the build requirements in pyproject.toml bring Cython and lxml's headers); if that fails,
or ``SCRAPY_BOILERPLATE_PURE_PYTHON=1`` is set, the package installs as pure Python and
``parse.py`` uses its own ``segment``.
"""

import os

from setuptools import Extension, setup


def extensions() -> list:
    if os.environ.get("SCRAPY_BOILERPLATE_PURE_PYTHON"):
        return []
    try:
        import lxml
        from Cython.Build import cythonize
    except ImportError:
        return []
    ext = Extension(
        "scrapy_boilerplate._csegment",
        ["scrapy_boilerplate/_csegment.pyx"],
        include_dirs=lxml.get_include(),
        optional=True,  # a failed compile leaves the pure-Python segmenter
    )
    return cythonize([ext], compiler_directives={"language_level": 3}, quiet=True)


setup(ext_modules=extensions())
