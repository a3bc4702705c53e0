"""Metadata is in setup.cfg. This file only adds the optional compiled hot loops.

``scrapy_boilerplate/_csegment.pyx`` (the block segmentation),
``scrapy_boilerplate/_cwords.pyx`` (the blocks' token separation and word statistics),
``scrapy_boilerplate/filters/density/_cdom.pyx`` (the density family's DOM walk),
``scrapy_boilerplate/filters/density/_ckmeans.pyx`` (CETR's k-means),
``scrapy_boilerplate/neural/_cstructure.pyx`` (Web2Text's collapsed DOM),
``scrapy_boilerplate/neural/_ctextstats.pyx`` (its character counts),
``scrapy_boilerplate/neural/_cassemble.pyx`` (its feature arrays) and
``scrapy_boilerplate/neural/_cviterbi.pyx`` (its decoder) are
compiled when Cython and a C compiler are at hand (the build requirements in
pyproject.toml bring Cython and lxml's headers); if that fails, or
``SCRAPY_BOILERPLATE_PURE_PYTHON=1`` is set, the package installs as pure Python and uses
the Python walks they mirror.
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
    modules = {
        "scrapy_boilerplate._csegment": "scrapy_boilerplate/_csegment.pyx",
        "scrapy_boilerplate._cwords": "scrapy_boilerplate/_cwords.pyx",
        "scrapy_boilerplate.filters.density._cdom": "scrapy_boilerplate/filters/density/_cdom.pyx",
        "scrapy_boilerplate.filters.density._ckmeans": "scrapy_boilerplate/filters/density/_ckmeans.pyx",
        "scrapy_boilerplate.neural._cstructure": "scrapy_boilerplate/neural/_cstructure.pyx",
        "scrapy_boilerplate.neural._ctextstats": "scrapy_boilerplate/neural/_ctextstats.pyx",
        "scrapy_boilerplate.neural._cassemble": "scrapy_boilerplate/neural/_cassemble.pyx",
        "scrapy_boilerplate.neural._cviterbi": "scrapy_boilerplate/neural/_cviterbi.pyx",
    }
    extensions = [
        # optional: a failed compile leaves the pure-Python walk
        Extension(name, [source], include_dirs=lxml.get_include(), optional=True)
        for name, source in modules.items()
    ]
    return cythonize(extensions, compiler_directives={"language_level": 3}, quiet=True)


setup(ext_modules=extensions())
