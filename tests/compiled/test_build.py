"""The compiled twins are built and used, each named after its original and listed once,
``setup.py`` builds the listed ones, a twin built before its sources changed is stale, and
the package works without them (``SCRAPY_BOILERPLATE_PURE_PYTHON=1``).

Installing the package compiles the twins where Cython and a C compiler are at hand (they
are on our CI machine, so here they must be built). Each twin's own module in this folder
checks that it gives exactly what its pure-Python original gives.
"""

import os
import runpy
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from scrapy_boilerplate import parse
from scrapy_boilerplate._compiled import TWINNED, is_stale, twin_name

from .helpers import TWINS, compiled


@compiled
@pytest.mark.parametrize("module", list(TWINS), ids=lambda m: m.__name__.rpartition(".")[2])
def test_the_compiled_twins_are_built_and_used(module):
    assert module.COMPILED, (
        f"the compiled twins of {module.__name__} are not built: reinstall with "
        "`pip install -e .` (needs Cython and a C compiler)"
    )
    for name in TWINS[module]:
        python_twin = getattr(module, f"{name}_python")
        assert getattr(module, name) is not python_twin
        assert "cython" in type(getattr(module, name)).__name__


def test_each_twin_is_named_after_its_original_and_listed_once():
    package = Path(parse.__file__).parent
    assert twin_name("parse") == "_cparse"
    assert twin_name("filters.density._dom") == "filters.density._cdom"
    assert twin_name("scrapy_boilerplate.neural.viterbi") == "scrapy_boilerplate.neural._cviterbi"
    listed = {package / (twin_name(m).replace(".", "/") + ".pyx") for m in TWINNED}
    on_disk = set(package.rglob("_c*.pyx"))
    assert listed == on_disk
    for module in TWINNED:  # and each original is a module beside its twin
        assert (package / (module.replace(".", "/") + ".py")).is_file()
    # the tests of this folder cover every twin (TWINS lists them)
    assert {m.__name__.removeprefix("scrapy_boilerplate.") for m in TWINS} == set(TWINNED)


def test_setup_builds_the_listed_twins(monkeypatch):
    import Cython.Build
    import setuptools

    built = {}
    monkeypatch.setattr(Cython.Build, "cythonize", lambda extensions, **kw: extensions)
    monkeypatch.setattr(setuptools, "setup", lambda **kw: built.update(kw))
    monkeypatch.delenv("SCRAPY_BOILERPLATE_PURE_PYTHON", raising=False)
    runpy.run_path(str(Path(parse.__file__).parents[1] / "setup.py"), run_name="setup")
    names = {ext.name for ext in built["ext_modules"]}
    assert names == {f"scrapy_boilerplate.{twin_name(m)}" for m in TWINNED}
    assert all(ext.optional for ext in built["ext_modules"])


def test_a_twin_built_before_its_sources_changed_is_stale(tmp_path):
    compiled_file, pyx, py = (tmp_path / n for n in ("_cx.so", "_cx.pyx", "x.py"))
    for f in (compiled_file, pyx, py):
        f.write_text("")
    os.utime(pyx, (1000, 1000))
    os.utime(py, (1000, 1000))
    os.utime(compiled_file, (2000, 2000))
    assert not is_stale(compiled_file, [pyx, py, tmp_path / "absent.pxd"])
    os.utime(py, (3000, 3000))  # the Python twin edited after the build
    assert is_stale(compiled_file, [pyx, py])
    os.utime(py, (1000, 1000))
    os.utime(pyx, (3000, 3000))  # the .pyx edited after the build
    assert is_stale(compiled_file, [pyx, py])


@compiled
def test_importing_a_stale_twin_warns_loudly(tmp_path):
    """In a source tree; an installed copy has no sources to compare with (and files as
    old as the install made them), so it never warns."""
    # a copy of the package whose parse.py is newer than its compiled segmenter
    package = Path(parse.__file__).parent
    copy = tmp_path / "scrapy_boilerplate"
    shutil.copytree(package, copy, ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(package.parent / "setup.py", tmp_path)  # a source tree, as a checkout is
    later = copy / "_cparse.pyx"
    stamp = max(f.stat().st_mtime for f in copy.rglob("_cparse*.so")) + 10
    os.utime(copy / "parse.py", (stamp, stamp))
    os.utime(later, (stamp - 20, stamp - 20))
    code = "import warnings; warnings.simplefilter('error'); import scrapy_boilerplate"
    env = {**os.environ, "PYTHONPATH": str(tmp_path)}
    done = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, cwd=tmp_path
    )
    assert done.returncode != 0
    assert "scrapy_boilerplate._cparse was built before the last change" in done.stderr
    assert "pip install -e ." in done.stderr
    # the same files outside a source tree (as installed): no warning
    (tmp_path / "setup.py").unlink()
    done = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, cwd=tmp_path
    )
    assert done.returncode == 0, done.stderr


def test_without_the_compiled_segmenter_the_package_still_extracts():
    code = (
        "from scrapy_boilerplate import extract, parse; "
        "r = extract('<html><body><p>' + 'Plain Python still works here. ' * 9 + '</p>'); "
        "print(parse.COMPILED, len(r.text.split()))"
    )
    env = {**os.environ, "SCRAPY_BOILERPLATE_PURE_PYTHON": "1"}
    out = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
    ).stdout.split()
    assert out == ["False", "45"]
