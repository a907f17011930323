"""The import graph of src/benchval has no circle (lazy imports inside functions included), and the
layout is imported by the workflow layer only.

An edge ``a -> b`` is an import of module ``b`` written in module ``a`` (anywhere: at the top, inside a
function, relative or absolute; found with :func:`benchval.plumbing.reruns.imported_modules`, by
reading, never by importing). The workflow layer (:data:`WORKFLOW_LAYER`) is the plumbing that exists for
the rule files: the layout (paths and the sets a config asks for), the rerun params (benchval.plumbing.reruns)
and the cluster resources of the model rules. It may import the stages; every other module, the rest of the
plumbing included (config, folders, raw files, their checks, the published folders), is below it and does
not import the layout.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from benchval.plumbing.folders import REPO_ROOT
from benchval.plumbing.reruns import imported_modules

PACKAGE_DIR = REPO_ROOT / "src" / "benchval"
LAYOUT = "benchval.plumbing.layout"
WORKFLOW_LAYER = {LAYOUT, "benchval.plumbing.reruns", "benchval.plumbing.cluster_resources"}


def import_graph(package_dir: Path) -> dict[str, set[str]]:
    """{module: the package's modules it imports} for every module below ``package_dir``."""
    modules = {}
    for path in sorted(package_dir.rglob("*.py")):
        parts = [package_dir.name, *path.relative_to(package_dir).with_suffix("").parts]
        is_package = parts[-1] == "__init__"
        name = ".".join(parts[:-1] if is_package else parts)
        modules[name] = (path, f"{name}.__init__" if is_package else name)
    return {
        name: {found for found in imported_modules(path.read_text(), anchor) if found in modules and found != name}
        for name, (path, anchor) in modules.items()
    }


def find_circle(graph: dict[str, set[str]]) -> list[str] | None:
    """One circle ``[a, b, ..., a]`` of ``graph``, or None (depth-first search, modules in sorted order)."""
    done: set[str] = set()
    path: list[str] = []
    on_path: set[str] = set()

    def visit(name: str) -> list[str] | None:
        path.append(name)
        on_path.add(name)
        for target in sorted(graph[name]):
            if target in on_path:
                return path[path.index(target) :] + [target]
            if target not in done:
                found = visit(target)
                if found:
                    return found
        path.pop()
        on_path.discard(name)
        done.add(name)
        return None

    for name in sorted(graph):
        if name not in done:
            found = visit(name)
            if found:
                return found
    return None


def rule_file_imports(repo: Path = REPO_ROOT) -> set[str]:
    """The plumbing modules the Snakefile and the rule files import."""
    rule_files = [repo / "workflow" / "Snakefile", *sorted((repo / "workflow" / "rules").glob("*.smk"))]
    imports = re.compile(r"^\s*(?:from|import)\s+(benchval\.plumbing\.\w+)", re.MULTILINE)
    return {name for path in rule_files for name in imports.findall(path.read_text())}


def layout_importers(graph: dict[str, set[str]], layer: set[str]) -> dict[str, str]:
    """{module outside ``layer``: why it is wrong} for every such module that imports the layout."""
    return {
        name: f"{name} imports {LAYOUT}" for name, targets in graph.items() if LAYOUT in targets and name not in layer
    }


def _circle_message(circle: list[str]) -> str:
    return "import circle: " + " -> ".join(circle)


def test_benchval_has_no_import_circle():
    graph = import_graph(PACKAGE_DIR)
    assert len(graph) > 150 and "benchval.plumbing.layout" in graph  # the whole package was read
    circle = find_circle(graph)
    assert circle is None, _circle_message(circle)


def _made_up_package(root: Path, files: dict[str, str]) -> Path:
    package = root / "benchval"
    for name, source in {"__init__.py": "", **files}.items():
        (package / name).parent.mkdir(parents=True, exist_ok=True)
        (package / name).write_text(source)
    return package


@pytest.mark.parametrize(
    ("files", "expected"),
    [
        (  # at the top of the modules
            {
                "a.py": "from benchval.b import x\n",
                "b.py": "import benchval.c\nx = 1\n",
                "c.py": "from benchval import a\n",
            },
            ["benchval.a", "benchval.b", "benchval.c", "benchval.a"],
        ),
        (  # the closing import is lazy, inside a function, and relative
            {
                "lower/__init__.py": "",
                "lower/base.py": "def make():\n    from .engine import Engine\n    return Engine()\n",
                "lower/engine.py": "from benchval.lower.base import make\n\nclass Engine: ...\n",
            },
            ["benchval.lower.base", "benchval.lower.engine", "benchval.lower.base"],
        ),
    ],
    ids=["top-level", "lazy-relative"],
)
def test_a_circle_is_found_and_named(tmp_path, files, expected):
    graph = import_graph(_made_up_package(tmp_path, files))
    circle = find_circle(graph)
    print(_circle_message(circle))
    assert circle == expected


def test_no_circle_in_a_made_up_package_without_one(tmp_path):
    files = {"a.py": "from benchval.b import x\n", "b.py": "def f():\n    import benchval.c\nx = 1\n", "c.py": ""}
    assert find_circle(import_graph(_made_up_package(tmp_path, files))) is None


def test_the_layout_is_imported_by_the_workflow_layer_only():
    assert WORKFLOW_LAYER <= rule_file_imports()  # the layer is what the rule files use
    assert layout_importers(import_graph(PACKAGE_DIR), WORKFLOW_LAYER) == {}


def test_a_stage_module_importing_the_layout_is_named(tmp_path):
    files = {
        "plumbing/__init__.py": "",
        "plumbing/layout.py": "from benchval.stage import CONSTANT\n",
        "plumbing/reruns.py": "",
        "stage.py": "CONSTANT = 1\n\ndef path():\n    from benchval.plumbing.layout import fill\n",
    }
    graph = import_graph(_made_up_package(tmp_path, files))
    wrong = layout_importers(graph, {LAYOUT, "benchval.plumbing.reruns"})
    print(wrong)
    assert wrong == {"benchval.stage": "benchval.stage imports benchval.plumbing.layout"}
    assert find_circle(graph) == ["benchval.plumbing.layout", "benchval.stage", "benchval.plumbing.layout"]
