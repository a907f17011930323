"""The import graph of src/benchval: no circle between modules (lazy imports inside functions included), no
two packages importing each other, the ground floor (benchval.plumbing) importing no other package, nothing
below the jobs wing (benchval.jobs) importing it, and docs/workflow.md's floor plan equal to the graph's floors.

An edge ``a -> b`` is an import of module ``b`` written in module ``a`` (anywhere: at the top, inside a
function, relative or absolute; found with :func:`benchval.jobs.reruns.imported_modules`, by reading, never
by importing). A package edge ``benchval.x -> benchval.y`` is any module edge from below ``benchval.x`` to
below ``benchval.y``. The floors are the package graph's layers: floor 0 holds the packages that import no
other package, floor n those whose imports all lie on lower floors (so the floors exist only where no two
packages import each other). The wing holds the Snakemake kit only: the layout (paths and the sets a config
asks for), the rerun params, the rule settings, logs and rule files, cluster sizing; the rules' step modules
live beside their domain (``benchval.<domain>.steps``, tests/test_job_steps.py). No stage imports the wing;
only the tools above it do (TOOLS: the GPU-hours planner and the generators of files drawn from the code).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from benchval.jobs.reruns import imported_modules
from benchval.plumbing.folders import REPO_ROOT

PACKAGE_DIR = REPO_ROOT / "src" / "benchval"
GROUND = "benchval.plumbing"
WING = "benchval.jobs"
LAYOUT = "benchval.jobs.layout"
#: the packages above the wing, which may import it: tools that read the workflow's kit
TOOLS = ("benchval.cluster_planning", "benchval.project_files")
FLOOR_PLAN = REPO_ROOT / "docs" / "workflow.md"


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


def package_of(module: str) -> str | None:
    """``benchval.x`` for ``benchval.x`` and everything below it; None for ``benchval`` itself."""
    parts = module.split(".")
    return ".".join(parts[:2]) if len(parts) > 1 else None


def package_graph(graph: dict[str, set[str]]) -> dict[str, set[str]]:
    """{package: the other packages its modules import}."""
    packages: dict[str, set[str]] = {}
    for name, targets in graph.items():
        source = package_of(name)
        if source is None:
            continue
        found = {package_of(target) for target in targets}
        packages.setdefault(source, set()).update(p for p in found if p is not None and p != source)
    return packages


def mutual_pairs(packages: dict[str, set[str]]) -> list[tuple[str, str]]:
    """Every pair of packages that import each other, each pair once (sorted)."""
    return sorted((a, b) for a, targets in packages.items() for b in targets if a < b and a in packages.get(b, ()))


def upward_imports(graph: dict[str, set[str]], ground: str = GROUND) -> list[str]:
    """``module -> module`` for every import from below ``ground`` to a module of another package."""
    return sorted(
        f"{name} -> {target}"
        for name, targets in graph.items()
        if package_of(name) == ground
        for target in targets
        if package_of(target) not in (ground, None)
    )


def wing_importers(graph: dict[str, set[str]], wing: str = WING, tools: tuple[str, ...] = TOOLS) -> list[str]:
    """``module -> module`` for every import of the wing from a module outside it and outside ``tools``."""
    return sorted(
        f"{name} -> {target}"
        for name, targets in graph.items()
        if package_of(name) not in (wing, *tools)
        for target in targets
        if package_of(target) == wing
    )


def floors(packages: dict[str, set[str]]) -> list[list[str]]:
    """The packages floor by floor: each imports only packages on lower floors. ValueError where some
    packages import each other, directly or around a circle (they have no floor)."""
    placed: dict[str, int] = {}
    while len(placed) < len(packages):
        ready = {
            package: max((placed[target] + 1 for target in targets), default=0)
            for package, targets in packages.items()
            if package not in placed and targets <= placed.keys()
        }
        if not ready:
            raise ValueError(f"no floor for {sorted(set(packages) - set(placed))}: they import each other")
        placed.update(ready)
    return [sorted(p for p, floor in placed.items() if floor == level) for level in range(max(placed.values()) + 1)]


def floor_table(levels: list[list[str]]) -> str:
    """The rows of the floor table docs/workflow.md should have (without the last column)."""
    names = [", ".join(f"`{package.split('.')[1]}`" for package in level) for level in levels]
    return "\n".join(f"| {level} | {cell} |" for level, cell in enumerate(names))


FLOOR_ROW = re.compile(r"^\|\s*(\d+)\s*\|(.*)\|\s*$")


def documented_floors(text: str) -> list[list[str]]:
    """The floor table of docs/workflow.md's section "Floors": rows ``| n | `a`, `b` | what they hold |``."""
    section = text.split("\n## Floors", 1)[1].split("\n## ", 1)[0]
    rows = [FLOOR_ROW.match(line) for line in section.splitlines()]
    table = {int(row[1]): row[2].split("|")[0] for row in rows if row}
    return [sorted(f"benchval.{name}" for name in re.findall(r"`(\w+)`", table[level])) for level in sorted(table)]


def rule_file_imports(repo: Path = REPO_ROOT) -> set[str]:
    """The wing modules the Snakefile and the rule files import."""
    rule_files = [repo / "workflow" / "Snakefile", *sorted((repo / "workflow" / "rules").glob("*.smk"))]
    imports = re.compile(r"^\s*(?:from|import)\s+(benchval\.jobs\.\w+)", re.MULTILINE)
    return {name for path in rule_files for name in imports.findall(path.read_text())}


def _circle_message(circle: list[str]) -> str:
    return "import circle: " + " -> ".join(circle)


def test_benchval_has_no_import_circle():
    graph = import_graph(PACKAGE_DIR)
    assert len(graph) > 150 and LAYOUT in graph  # the whole package was read
    circle = find_circle(graph)
    assert circle is None, _circle_message(circle)


def test_no_two_packages_import_each_other_and_the_ground_floor_imports_no_package():
    graph = import_graph(PACKAGE_DIR)
    packages = package_graph(graph)
    upward, pairs = upward_imports(graph), mutual_pairs(packages)
    print(f"upward imports from {GROUND}: {len(upward)} {upward}")
    print(f"package pairs importing each other: {len(pairs)} {pairs}")
    assert {GROUND, WING, "benchval.analysis", "benchval.atlas"} <= set(packages)  # every package was read
    assert upward == []
    assert packages[GROUND] == set()
    assert graph["benchval.plumbing.folders"] == {"benchval.plumbing.config_error"}  # docs/workflow.md, "Layout"
    assert pairs == []


def test_nothing_below_the_wing_imports_it():
    assert {LAYOUT, "benchval.jobs.reruns", "benchval.jobs.cluster_resources"} <= rule_file_imports()
    assert wing_importers(import_graph(PACKAGE_DIR)) == []


def test_the_floor_plan_of_the_docs_is_the_package_graph():
    expected = floors(package_graph(import_graph(PACKAGE_DIR)))
    table = floor_table(expected)
    print(table)
    assert documented_floors(FLOOR_PLAN.read_text()) == expected, f"docs/workflow.md 'Floors' should list:\n{table}"
    assert GROUND in expected[0]
    wing_floor = next(level for level, names in enumerate(expected) if WING in names)
    tool_floors = [level for level, names in enumerate(expected) for package in names if package in TOOLS]
    assert all(level > wing_floor for level in tool_floors)  # the tools that read the kit stand above it


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


MADE_UP = {  # two packages that import each other through different modules: no module circle
    "plumbing/__init__.py": "",
    "plumbing/config.py": "def default():\n    from benchval.lmeval import METRICS\n",
    "lmeval/__init__.py": "METRICS = ()\n",
    "stage/__init__.py": "",
    "stage/names.py": "",
    "stage/steps.py": "from benchval.other.table import read\n",
    "other/__init__.py": "",
    "other/table.py": "from benchval.stage.names import normalise\n",
    "jobs/__init__.py": "",
    "jobs/layout.py": "from benchval.stage.names import normalise\n",
    "lmeval/importer.py": "from benchval.jobs.layout import fill\n",
    "project_files/__init__.py": "from benchval.jobs.layout import fill\n",  # a tool above the wing: allowed
}


def test_a_made_up_package_pair_and_an_upward_import_are_named(tmp_path):
    graph = import_graph(_made_up_package(tmp_path, MADE_UP))
    packages = package_graph(graph)
    print(packages)
    assert find_circle(graph) is None  # the module-level check alone passes this package
    assert mutual_pairs(packages) == [("benchval.other", "benchval.stage")]
    assert upward_imports(graph) == ["benchval.plumbing.config -> benchval.lmeval"]
    assert wing_importers(graph) == ["benchval.lmeval.importer -> benchval.jobs.layout"]
    with pytest.raises(ValueError, match=r"no floor for .*'benchval.other'.*'benchval.stage'"):
        floors(packages)


def test_floors_of_a_made_up_graph_and_a_floor_plan_that_differs():
    packages = {
        "benchval.plumbing": set(),
        "benchval.tasks": {"benchval.plumbing"},
        "benchval.jobs": {"benchval.tasks"},
    }
    assert floors(packages) == [["benchval.plumbing"], ["benchval.tasks"], ["benchval.jobs"]]
    doc = "# x\n\n## Floors\n\n| Floor | Packages | Holds |\n|---|---|---|\n"
    doc += "| 0 | `plumbing`, `tasks` | ... |\n| 1 | `jobs` | |\n"
    assert documented_floors(doc) == [["benchval.plumbing", "benchval.tasks"], ["benchval.jobs"]]
    assert documented_floors(doc) != floors(packages)  # tasks is drawn one floor too low: the test above fails
