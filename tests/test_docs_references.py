"""Every ``benchval.x.y`` that the docs, the rule files and the docstrings name exists: a module, or a name in one.

A module that moves, or a function that is renamed, leaves no stale reference behind."""

from __future__ import annotations

import importlib
import re
from pathlib import Path

from benchval.plumbing.folders import REPO_ROOT

DOTTED = re.compile(r"\bbenchval(?:\.[A-Za-z_][A-Za-z0-9_]*)+")

# Dotted names that are not Python references, each with what it is.
NOT_REFERENCES = {
    "benchval.prior": "the key of the N/A prior requests in an lm-eval samples file",
    "benchval.yaml": (
        "the rules' software environment, workflow/envs/benchval.yaml (benchval.project_files.environment_file)"
    ),
    "benchval.task_meta": "the parquet metadata key of a task's items",
    "benchval.a": "an example in benchval.jobs.reruns's docstrings",
    "benchval.a.b": "an example in benchval.jobs.reruns's docstrings",
    "benchval.x": "an example in benchval.jobs.reruns's docstrings",
    "benchval.x.y": "an example in benchval.jobs.reruns's docstrings",
}


def documents() -> list[Path]:
    roots = [*REPO_ROOT.glob("docs/*.md"), REPO_ROOT / "README.md", REPO_ROOT / "workflow" / "Snakefile"]
    roots += [*REPO_ROOT.glob("workflow/rules/*.smk"), *REPO_ROOT.glob("workflow/scripts/*.py")]
    roots += [*REPO_ROOT.glob("config/**/*.yaml"), *REPO_ROOT.glob("workflow/schemas/*.yaml")]
    folders = REPO_ROOT / "src" / "benchval" / "tasks" / "catalogue"  # the task folders' notes and entries
    roots += [*sorted(folders.glob("*/README.md")), *sorted(folders.glob("*/task.yaml"))]
    return roots + sorted((REPO_ROOT / "src" / "benchval").rglob("*.py"))


def resolves(reference: str) -> bool:
    """True if ``reference`` is an importable module, or a chain of attributes of the longest one."""
    parts = reference.split(".")
    for split in range(len(parts), 0, -1):
        try:
            target = importlib.import_module(".".join(parts[:split]))
        except ImportError:
            continue
        for name in parts[split:]:
            if not hasattr(target, name):
                return False
            target = getattr(target, name)
        return True
    return False


def stale_references(paths: list[Path], root: Path = REPO_ROOT) -> list[str]:
    stale = []
    for path in paths:
        for line_number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            for reference in DOTTED.findall(line):
                if reference not in NOT_REFERENCES and not resolves(reference):
                    stale.append(f"{path.relative_to(root)}:{line_number}: {reference}")
    return stale


def test_every_dotted_benchval_name_exists():
    assert stale_references(documents()) == []


def test_a_moved_module_and_a_renamed_function_are_caught(tmp_path):
    doc = tmp_path / "doc.md"
    doc.write_text(
        "See benchval.plumbing.folders.REPO_ROOT.\n"
        "Old: benchval.nowhere.helper, benchval.plumbing.folders.no_such_name.\n"
    )
    assert stale_references([doc], tmp_path) == [
        "doc.md:2: benchval.nowhere.helper",
        "doc.md:2: benchval.plumbing.folders.no_such_name",
    ]


REPO_PATH = re.compile(
    r"\b(?:src|workflow|tests|benchmarks|config|docs)/[A-Za-z0-9_./-]+\.(?:py|smk|yaml|md|csv|txt|json)\b"
)

# Paths named before they exist, each with why.
NOT_YET_WRITTEN = {
    "benchmarks/results/bench_dtype-100.csv": "the larger bf16 sample, to be run (tests/scoring/test_dtype_docs.py)",
}


def missing_paths(paths: list[Path], root: Path = REPO_ROOT) -> list[str]:
    """Repository paths the docs name that do not exist (patterns with ``{...}`` or ``*`` are not paths)."""
    missing = []
    for path in paths:
        for line_number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            for named in REPO_PATH.findall(line):
                if named not in NOT_YET_WRITTEN and not (root / named).exists():
                    missing.append(f"{path.relative_to(root)}:{line_number}: {named}")
    return missing


def test_every_repository_path_the_docs_name_exists():
    docs = [*REPO_ROOT.glob("docs/*.md"), REPO_ROOT / "README.md", *sorted((REPO_ROOT / "src").rglob("*.py"))]
    assert missing_paths(docs) == []


def test_a_path_to_a_moved_file_is_caught(tmp_path):
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "here.py").write_text("")
    doc = tmp_path / "doc.md"
    doc.write_text("Here: src/here.py; moved: src/gone.py; a pattern: results/{study}/x.csv\n")
    assert missing_paths([doc], tmp_path) == ["doc.md:1: src/gone.py"]
