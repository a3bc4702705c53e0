"""The package's layers hold: no import cycle, the engine imports no Scrapy (nor torch),
and the Scrapy layer's private parts stay behind ``_scrapy/``.

The import graph is read from the source (every ``import`` statement, also those inside
functions; not those under ``if TYPE_CHECKING:``), so a lazy import that closes a cycle
is found as well as a top-level one. Importing a submodule runs its package's
``__init__`` first; those implicit edges are not counted, as in other cycle checkers.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "scrapy_boilerplate"
NAME = "scrapy_boilerplate"

#: the Scrapy layer: the public components users name in settings, and the private rest
SCRAPY_LAYER = (
    f"{NAME}.addon",
    f"{NAME}.middlewares",
    f"{NAME}.pipelines",
    f"{NAME}.commands",
    f"{NAME}.settings",
    f"{NAME}.logformatter",
    f"{NAME}._scrapy",
)
SCRAPY_PACKAGES = ("scrapy", "twisted", "itemadapter", "parsel")


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _modules() -> dict[str, Path]:
    return {_module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


def _is_type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _imports(module: str, path: Path) -> set[str]:
    """Every module name ``module`` imports (absolute), TYPE_CHECKING blocks excepted."""
    modules = _modules()
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found: set[str] = set()

    def visit(node: ast.AST) -> None:
        if isinstance(node, ast.If) and _is_type_checking(node):
            for child in node.orelse:
                visit(child)
            return
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - (node.level - 1)]
                origin = ".".join(base + ([node.module] if node.module else []))
            else:
                origin = node.module or ""
            # "from . import x" and "from .pkg import mod" name submodules; other names
            # are the origin module's
            for alias in node.names:
                sub = f"{origin}.{alias.name}"
                found.add(sub if sub in modules else origin)
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(tree)
    return found


def _graph() -> dict[str, set[str]]:
    modules = _modules()
    return {
        name: {target for target in _imports(name, path) if target in modules and target != name}
        for name, path in modules.items()
    }


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    found: list[list[str]] = []
    counter = 0
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            for child in children:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                    break
                if child in on_stack:
                    low[node] = min(low[node], index[child])
            else:
                work.pop()
                if work:
                    parent = work[-1][0]
                    low[parent] = min(low[parent], low[node])
                if low[node] == index[node]:
                    component = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.append(member)
                        if member == node:
                            break
                    if len(component) > 1:
                        found.append(sorted(component))
    return found


def _in_scrapy_layer(module: str) -> bool:
    return any(module == m or module.startswith(m + ".") for m in SCRAPY_LAYER)


def test_the_cycle_finder_finds_a_cycle():
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert _cycles(graph) == [["a", "b", "c"]]


def test_the_import_graph_has_no_cycle():
    assert _cycles(_graph()) == []


def test_the_import_graph_sees_lazy_imports():
    graph = _graph()
    # the web2text model imports onnxruntime lazily; the training package imports torch so
    assert f"{NAME}.neural.features" in graph[f"{NAME}.neural.model"]
    imports = _imports(f"{NAME}.neural.model", _modules()[f"{NAME}.neural.model"])
    assert "onnxruntime" in imports


def test_the_engine_imports_no_scrapy():
    offenders = {
        module: sorted(
            target for target in _imports(module, path) if target.split(".")[0] in SCRAPY_PACKAGES
        )
        for module, path in _modules().items()
        if not _in_scrapy_layer(module)
    }
    assert {m: t for m, t in offenders.items() if t} == {}


def test_only_training_imports_torch():
    offenders = [
        module
        for module, path in _modules().items()
        if not module.startswith(f"{NAME}.training")
        and any(t.split(".")[0] == "torch" for t in _imports(module, path))
    ]
    assert offenders == []


def test_the_engine_does_not_reach_into_the_scrapy_layer():
    graph = _graph()
    offenders = {
        module: sorted(t for t in targets if _in_scrapy_layer(t))
        for module, targets in graph.items()
        if not _in_scrapy_layer(module)
    }
    assert {m: t for m, t in offenders.items() if t} == {}


@pytest.mark.parametrize(
    "module", [f"{NAME}.parallel.worker", f"{NAME}.parallel.process_pool", NAME]
)
def test_importing_the_engine_and_the_workers_code_loads_no_scrapy(module):
    # worker processes load only these: they must start without Scrapy
    code = (
        f"import sys, {module}\n"
        f"loaded = sorted(m for m in sys.modules if m.split('.')[0] in {SCRAPY_PACKAGES!r})\n"
        "assert not loaded, loaded\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)
