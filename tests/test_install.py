"""Installing the package: the README's command in a fresh virtual environment, an install
without a C compiler (pure Python, whose suite then passes), and an sdist that carries what
its tests need.

These build and install the package for real (a minute or two each): they are what a new
user's first hour depends on.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tarfile
import venv
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
IGNORED = shutil.ignore_patterns(
    ".git", "__pycache__", "*.so", "*.c", "build", "dist", "*.egg-info", "output", "out", ".tox"
)


def _checkout(tmp_path: Path) -> Path:
    """A copy of the checkout without build products (as a fresh clone has it)."""
    target = tmp_path / "checkout"
    shutil.copytree(ROOT, target, ignore=IGNORED)
    return target


def _venv(path: Path) -> Path:
    venv.EnvBuilder(with_pip=True).create(path)
    return path / "bin"


def _run(command: str | list[str], cwd: Path, env: dict[str, str], timeout: int = 900) -> str:
    done = subprocess.run(
        command,
        cwd=cwd,
        env=env,
        shell=isinstance(command, str),
        capture_output=True,
        text=True,
        timeout=timeout,
    )
    assert done.returncode == 0, f"{command}\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
    return done.stdout + done.stderr


def _readme_command(title: str) -> str:
    """The command of the README's code block after the paragraph that starts with
    ``title``, verbatim."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    start = readme.index(title)
    block = re.search(r"```\n(.+?)\n```", readme[start:], re.DOTALL)
    assert block is not None
    return block[1]


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX shells and paths")
def test_the_readmes_first_command_in_a_fresh_virtual_environment(tmp_path):
    command = _readme_command("Run the main job")
    assert command == "python -m pip install -e . && python examples/news_crawler/run.py"
    checkout = _checkout(tmp_path)
    bin_dir = _venv(tmp_path / "venv")
    env = {**os.environ, "PATH": f"{bin_dir}{os.pathsep}{os.environ['PATH']}"}
    env.pop("PYTHONPATH", None)
    env.pop("SCRAPY_BOILERPLATE_PURE_PYTHON", None)
    _run(command, checkout, env, timeout=1800)
    articles = (checkout / "examples" / "news_crawler" / "output" / "news.jsonl").read_text()
    assert len(articles.splitlines()) >= 20 and '"main_text"' in articles
    # the install compiled the twins (a C compiler is on this machine)
    out = _run(
        [str(bin_dir / "python"), "-c", "import scrapy_boilerplate.parse as p; print(p.COMPILED)"],
        tmp_path,
        env,
    )
    assert out.strip() == "True"


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX paths")
def test_an_install_without_a_c_compiler_is_pure_python_and_its_suite_passes(tmp_path):
    checkout = _checkout(tmp_path)
    # the dependencies come from this environment's site-packages, read as a plain path:
    # its .pth files (an editable install of the checkout among them) stay out
    bin_dir = _venv(tmp_path / "venv")
    (site_packages,) = (tmp_path / "venv" / "lib").glob("python*/site-packages")
    (site_packages / "dependencies.pth").write_text(
        "\n".join(p for p in sys.path if p.endswith("site-packages")) + "\n"
    )
    env = {
        key: value
        for key, value in os.environ.items()
        if key not in ("PYTHONPATH", "SCRAPY_BOILERPLATE_PURE_PYTHON", "CC", "CXX", "LDSHARED")
    }
    env["PATH"] = str(bin_dir)  # the venv's python and pip, and nothing else
    assert shutil.which("gcc", path=env["PATH"]) is None
    assert shutil.which("cc", path=env["PATH"]) is None
    _run(
        ["python", "-m", "pip", "install", "--no-deps", str(checkout)],
        tmp_path,
        env,
    )
    out = _run(
        ["python", "-c", "import scrapy_boilerplate as s, scrapy_boilerplate.parse as p; "
         "print(p.COMPILED, s.__file__); print(s.extract('<p>' + 'word ' * 40 + '</p>').text[:9])"],
        tmp_path,
        env,
    )  # fmt: skip
    assert out.startswith("False ") and str(tmp_path / "venv") in out and "word word" in out
    # the engine's suite, run against the installed package (not the checkout)
    suite = tmp_path / "suite"
    shutil.copytree(ROOT / "tests", suite / "tests", ignore=IGNORED)
    env["SCRAPY_BOILERPLATE_PURE_PYTHON"] = "1"
    tests = ["tests/test_public_api.py", "tests/test_parse.py", "tests/test_words.py",
             "tests/test_bad_input.py", "tests/test_limits.py", "tests/test_spec.py",
             "tests/filters"]  # fmt: skip
    out = _run(["python", "-m", "pytest", "-q", "-p", "no:cacheprovider", *tests], suite, env)
    assert re.search(r"\d+ passed", out) and " failed" not in out


def test_the_sdist_carries_the_tests_and_their_data(tmp_path):
    checkout = _checkout(tmp_path)
    env = {**os.environ, "SCRAPY_BOILERPLATE_PURE_PYTHON": "1"}  # no compiling for an sdist
    _run([sys.executable, "setup.py", "-q", "sdist", "-d", str(tmp_path / "dist")], checkout, env)
    (archive,) = (tmp_path / "dist").glob("*.tar.gz")
    assert archive.name.startswith("scrapy_boilerplate_removal-")
    with tarfile.open(archive) as tar:
        names = {"/".join(n.split("/")[1:]) for n in tar.getnames()}
    tracked = subprocess.run(
        ["git", "ls-files", "tests", "benchmarks", "examples", "scrapy_boilerplate"],
        cwd=ROOT, capture_output=True, text=True, check=True,
    ).stdout.split()  # fmt: skip
    missing = [f for f in tracked if f not in names]
    assert missing == []
    assert not any(n.endswith((".so", ".pyc")) for n in names)
