"""docs/architecture.md, drawn from the code: the rule graph and the package floors.

* The rule graph is Snakemake's own (``snakemake --rulegraph --forceall`` of the default config and
  target, run in the checkout), read from its dot text and drawn as a mermaid flowchart with the rules in
  sorted order, so that the page changes only when the graph does (Snakemake numbers its nodes in the
  order of a set, which differs between runs).
* The package floors: an edge ``a -> b`` for every package ``a`` of ``src/benchval`` with a module that
  imports a module of package ``b`` (found by reading, with :func:`benchval.jobs.reruns.imported_modules`,
  lazy imports included). Packages that import each other, directly or round a longer circle, share a floor
  and are listed with one import of each direction; otherwise a package's floor is one above the highest
  it imports, and a package that imports none is on floor 0.

The page is written by ``python -m benchval.project_files.generated_files`` and tests/test_generated_files.py
checks that it is what the code gives now.
"""

from __future__ import annotations

import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from benchval.jobs.reruns import imported_modules
from benchval.testing.snakemake_run import offline_env

PAGE = Path("docs/architecture.md")
PACKAGE = "benchval"
RULE_GRAPH_COMMAND = ["snakemake", "--rulegraph", "--forceall", "--cores", "1"]
NODE = re.compile(r'^\s*(\d+)\[label = "([^"]+)"', re.MULTILINE)
EDGE = re.compile(r"^\s*(\d+) -> (\d+)\s*$", re.MULTILINE)


# --- the rule graph ---------------------------------------------------------------------------------------


def rule_graph(repo: Path) -> set[tuple[str, str]]:
    """{(rule, rule that reads its output)} of the default target, from ``snakemake --rulegraph``."""
    command = [sys.executable, "-m", *RULE_GRAPH_COMMAND]
    env = offline_env(PYTHONPATH=str(repo / "src"))  # this checkout's package, whatever pip installed
    result = subprocess.run(command, cwd=repo, env=env, capture_output=True, text=True, timeout=900, check=False)
    if result.returncode != 0:
        raise RuntimeError(f"{' '.join(RULE_GRAPH_COMMAND)} failed in {repo}:\n{result.stderr[-3000:]}")
    return parse_rule_graph(result.stdout)


def parse_rule_graph(dot: str) -> set[tuple[str, str]]:
    """The edges of Snakemake's rulegraph dot text as (upstream rule, downstream rule); a rule without any
    edge appears as (rule, "")."""
    start = dot.find("digraph snakemake_dag {")
    if start < 0:
        raise ValueError(f"no 'digraph snakemake_dag {{' in Snakemake's output:\n{dot[:2000]}")
    body = dot[start:]
    names = dict(NODE.findall(body))
    edges = {(names[upstream], names[downstream]) for upstream, downstream in EDGE.findall(body)}
    linked = {rule for edge in edges for rule in edge}
    return edges | {(rule, "") for rule in names.values() if rule not in linked}


def rule_graph_mermaid(edges: set[tuple[str, str]]) -> str:
    """A mermaid flowchart of the rule graph: one node per rule, ids in sorted order of the rule names."""
    rules = sorted({rule for edge in edges for rule in edge if rule})
    ids = {rule: f"r{index}" for index, rule in enumerate(rules)}
    lines = ["```mermaid", "flowchart TB"]
    lines += [f'    {ids[rule]}["{rule}"]' for rule in rules]
    lines += [f"    {ids[up]} --> {ids[down]}" for up, down in sorted(edges) if down]
    return "\n".join([*lines, "```"])


# --- the package floors -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Floors:
    """The packages of src/benchval and how they import each other."""

    imports: dict[str, set[str]]  # package -> the packages it imports
    examples: dict[tuple[str, str], tuple[str, str]]  # (package, package) -> (module, module it imports)

    def circles(self) -> list[list[str]]:
        """Groups of two or more packages that reach each other by imports, each sorted; sorted."""
        reach = {package: self._reachable(package) for package in self.imports}
        groups = {
            tuple(sorted(other for other in self.imports if other in reach[package] and package in reach[other]))
            for package in self.imports
        }
        return sorted(list(group) for group in groups if len(group) > 1)

    def mutual_pairs(self) -> list[tuple[str, str]]:
        """Pairs of packages each of which imports the other."""
        return sorted((a, b) for a in self.imports for b in self.imports[a] if a < b and a in self.imports[b])

    def floor_of(self) -> dict[str, int]:
        """package -> floor (packages of one circle share it)."""
        group_of = {package: (package,) for package in self.imports}
        for circle in self.circles():
            for package in circle:
                group_of[package] = tuple(circle)
        floors: dict[tuple[str, ...], int] = {}

        def floor(group: tuple[str, ...]) -> int:
            if group not in floors:
                below = {group_of[target] for package in group for target in self.imports[package]} - {group}
                floors[group] = 1 + max(map(floor, below)) if below else 0
            return floors[group]

        return {package: floor(group_of[package]) for package in self.imports}

    def _reachable(self, start: str) -> set[str]:
        seen: set[str] = set()
        pending = [start]
        while pending:
            for target in self.imports[pending.pop()]:
                if target not in seen:
                    seen.add(target)
                    pending.append(target)
        return seen


def package_floors(package_dir: Path) -> Floors:
    """The import edges between the packages directly below ``package_dir`` (src/benchval); a module directly
    in it (``benchval/__init__.py``) belongs to no such package and is left out."""
    packages = sorted(path.parent.name for path in package_dir.glob("*/__init__.py"))
    imports: dict[str, set[str]] = {package: set() for package in packages}
    examples: dict[tuple[str, str], tuple[str, str]] = {}
    for path in sorted(package_dir.rglob("*.py")):
        parts = [PACKAGE, *path.relative_to(package_dir).with_suffix("").parts]
        is_init = parts[-1] == "__init__"
        module = ".".join(parts[:-1] if is_init else parts)
        source_package = parts[1] if len(parts) > 2 else None
        if source_package not in imports:
            continue
        found = imported_modules(path.read_text(encoding="utf-8"), module + ".__init__" * is_init)
        for target in sorted(found, key=lambda name: (-name.count("."), name)):  # the most specific name first
            target_parts = target.split(".")
            if len(target_parts) < 2 or target_parts[1] not in imports or target_parts[1] == source_package:
                continue
            imports[source_package].add(target_parts[1])
            examples.setdefault((source_package, target_parts[1]), (module, target))
    return Floors(imports, examples)


def floors_markdown(floors: Floors) -> str:
    """The floors as a table (top floor first), a mermaid drawing, and the packages that import each other."""
    floor_of = floors.floor_of()
    lines = ["| floor | package | imports |", "|---|---|---|"]
    for package in sorted(floors.imports, key=lambda name: (-floor_of[name], name)):
        imported = ", ".join(f"`{target}`" for target in sorted(floors.imports[package])) or "nothing of the package"
        lines.append(f"| {floor_of[package]} | `{PACKAGE}.{package}` | {imported} |")
    lines += ["", "```mermaid", "flowchart TB"]
    lines += [f'    p_{package}["{package}"]' for package in sorted(floors.imports)]
    lines += [
        f"    p_{package} --> p_{target}"
        for package in sorted(floors.imports)
        for target in sorted(floors.imports[package])
    ]
    lines += ["```", ""]
    circles = floors.circles()
    if not circles:
        lines.append("No two packages import each other, directly or round a circle.")
        return "\n".join(lines)
    pairs = floors.mutual_pairs()
    lines.append(
        f"{len(circles)} circle(s) of packages that import each other, and {len(pairs)} pair(s) importing each "
        "other directly" + (": " + ", ".join(f"`{a}` and `{b}`" for a, b in pairs) if pairs else "") + "."
    )
    lines += ["", "For each import inside a circle, one module that makes it:", ""]
    for circle in circles:
        lines.append(f"- {', '.join(f'`{package}`' for package in circle)}:")
        for a in circle:
            for b in sorted(floors.imports[a] & set(circle)):
                module, target = floors.examples[(a, b)]
                lines.append(f"  - `{a}` -> `{b}`: `{module}` imports `{target}`")
    return "\n".join(lines)


# --- the page ---------------------------------------------------------------------------------------------


def page_text(rule_edges: set[tuple[str, str]], floors: Floors) -> str:
    rules = {rule for edge in rule_edges for rule in edge if rule}
    return f"""# Architecture, drawn from the code

Written by `python -m benchval.project_files.generated_files` (run it from the repository root after a change to
the rules or to the package's imports; it also writes workflow/envs/benchval.yaml); tests/test_generated_files.py
fails while this page differs from what the code gives. The chain of rules in words, and what reruns when:
[workflow.md](workflow.md).

## The rule graph

Snakemake's rule graph of the default config and target (its `--rulegraph` option with `--forceall`, so that
a finished run draws the same graph; read by `benchval.project_files.architecture_page`): {len(rules)} rules, an
arrow from a rule to each rule that reads its output.

{rule_graph_mermaid(rule_edges)}

## The package floors

The packages of `src/benchval/` and the packages each one imports (a module of one importing a module of
the other anywhere, lazy imports inside functions included; read from the source with
`{imported_modules.__module__}.imported_modules`, never by importing). A package's floor is one above the
highest floor it imports; packages that import each other share a floor. In the drawing, an arrow runs from a
package to each package it imports.

{floors_markdown(floors)}
"""


def architecture_page(repo: Path) -> str:
    return page_text(rule_graph(repo), package_floors(repo / "src" / PACKAGE))


def section(page: str, heading: str) -> str:
    """The text of one ``## heading`` section of the page (up to the next ``## ``)."""
    start = page.index(f"## {heading}\n")
    end = page.find("\n## ", start + 1)
    return page[start : end if end >= 0 else len(page)]
