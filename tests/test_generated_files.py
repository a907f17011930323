"""The files drawn from the code (benchval.project_files.generated_files) are what the code gives now; that their pins
agree with pyproject.toml and environment.yml is tests/test_packaging.py's.

Regenerate with ``python -m benchval.project_files.generated_files``; ``--check`` says which file is stale.
"""

from __future__ import annotations

import subprocess
import sys

import pytest


from benchval.plumbing.folders import REPO_ROOT, default_mirror
from benchval.project_files.architecture_page import (
    PAGE,
    package_floors,
    page_text,
    parse_rule_graph,
    rule_graph_mermaid,
    section,
)
from benchval.project_files.environment_file import ENVIRONMENT_FILE, environment_text
from benchval.project_files.generated_files import stale_files
from benchval.testing.snakemake_run import offline_env

PYPROJECT = (REPO_ROOT / "pyproject.toml").read_text()


# --- the environment --------------------------------------------------------------------------------------


def test_the_rules_environment_is_written_from_pyproject():
    assert stale_files(REPO_ROOT, [ENVIRONMENT_FILE]) == {}


def test_a_rules_environment_edited_by_hand_is_stale(tmp_path):
    (tmp_path / "pyproject.toml").write_text(PYPROJECT)
    (tmp_path / ENVIRONMENT_FILE).parent.mkdir(parents=True)
    (tmp_path / ENVIRONMENT_FILE).write_text(environment_text(PYPROJECT).replace("pandas==3.1.1", "pandas==3.1.0"))
    stale = stale_files(tmp_path, [ENVIRONMENT_FILE])
    print(stale[ENVIRONMENT_FILE])
    assert "\n-      - pandas==3.1.0\n+      - pandas==3.1.1\n" in stale[ENVIRONMENT_FILE]


# --- docs/architecture.md ---------------------------------------------------------------------------------


def test_the_package_floors_of_the_page_are_the_code_s():
    page = (REPO_ROOT / PAGE).read_text()
    fresh = page_text(set(), package_floors(REPO_ROOT / "src" / "benchval"))
    assert section(page, "The package floors") == section(fresh, "The package floors")


def _package(root, files):
    for name, source in {"__init__.py": "", **files}.items():
        (root / "benchval" / name).parent.mkdir(parents=True, exist_ok=True)
        (root / "benchval" / name).write_text(source)
    return root / "benchval"


def test_packages_that_import_each_other_share_a_floor_and_are_named(tmp_path):
    package = _package(
        tmp_path,
        {
            "ground/__init__.py": "",
            "ground/folders.py": "ROOT = 1\n",
            "stage/__init__.py": "",
            "stage/steps.py": "from benchval.ground.folders import ROOT\n",
            "wing/__init__.py": "from .layout import paths\n",  # relative, in a package's __init__
            "wing/layout.py": "def paths():\n    from benchval.stage import steps\n",  # lazy
            "stage/back.py": "import benchval.wing.layout\n",  # the import that runs back up
        },
    )
    floors = package_floors(package)
    assert floors.imports == {"ground": set(), "stage": {"ground", "wing"}, "wing": {"stage"}}
    assert floors.circles() == [["stage", "wing"]] and floors.mutual_pairs() == [("stage", "wing")]
    assert floors.floor_of() == {"ground": 0, "stage": 1, "wing": 1}
    markdown = section(page_text(set(), floors), "The package floors")
    print(markdown)
    assert "- `stage`, `wing`:" in markdown
    assert "  - `stage` -> `wing`: `benchval.stage.back` imports `benchval.wing.layout`" in markdown
    assert "  - `wing` -> `stage`: `benchval.wing.layout` imports `benchval.stage.steps`" in markdown


def test_floors_without_a_circle(tmp_path):
    package = _package(
        tmp_path,
        {
            "ground/__init__.py": "",
            "stage/__init__.py": "from benchval.ground import x\n",
            "wing/__init__.py": "from benchval import stage, ground\n",
        },
    )
    floors = package_floors(package)
    assert floors.floor_of() == {"ground": 0, "stage": 1, "wing": 2} and floors.circles() == []
    assert "No two packages import each other" in page_text(set(), floors)


DOT = """Building DAG of jobs...
digraph snakemake_dag {
    graph[bgcolor=white, margin=0];
	0[label = "all", color = "0.00 0.6 0.85", style="rounded"];
	1[label = "publish", color = "0.22 0.6 0.85", style="rounded"];
	2[label = "prepare_task", color = "0.11 0.6 0.85", style="rounded"];
	3[label = "lonely", color = "0.33 0.6 0.85", style="rounded"];
	1 -> 0
	2 -> 1
	2 -> 0
}
"""


DOT_RENUMBERED = """digraph snakemake_dag {
	0[label = "prepare_task", color = "0.11 0.6 0.85", style="rounded"];
	1[label = "lonely", color = "0.33 0.6 0.85", style="rounded"];
	2[label = "all", color = "0.00 0.6 0.85", style="rounded"];
	3[label = "publish", color = "0.22 0.6 0.85", style="rounded"];
	0 -> 2
	0 -> 3
	3 -> 2
}
"""


def test_the_rule_graph_does_not_depend_on_snakemake_s_node_numbers():
    edges = parse_rule_graph(DOT)
    assert edges == {("publish", "all"), ("prepare_task", "publish"), ("prepare_task", "all"), ("lonely", "")}
    assert parse_rule_graph(DOT_RENUMBERED) == edges
    assert rule_graph_mermaid(edges).splitlines()[2:-1] == [
        '    r0["all"]',
        '    r1["lonely"]',
        '    r2["prepare_task"]',
        '    r3["publish"]',
        "    r2 --> r0",
        "    r2 --> r3",
        "    r3 --> r0",
    ]
    # an edge dropped from the graph changes the page
    assert rule_graph_mermaid(edges - {("prepare_task", "all")}) != rule_graph_mermaid(edges)


@pytest.mark.skipif(default_mirror() is None, reason="the default config's rule graph needs the shared raw-data mirror")
def test_the_generated_files_are_current():
    """The documented command, as a reader runs it: ``python -m benchval.project_files.generated_files --check``
    (plans the default run once for its rule graph)."""
    result = subprocess.run(
        [sys.executable, "-m", "benchval.project_files.generated_files", "--check"],
        cwd=REPO_ROOT,
        env=offline_env(PYTHONPATH=str(REPO_ROOT / "src")),
        capture_output=True,
        text=True,
        timeout=900,
        check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr[-6000:]
