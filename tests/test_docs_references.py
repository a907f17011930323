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


# ``benchval/analysis/lofo.py``: a path inside src/ named without it
PACKAGE_PATH = re.compile(r"(?<![\w/.-])benchval/[A-Za-z0-9_./-]+\.(?:py|yaml|md)\b")
# ``registry.py``: a file named alone, in backticks (a module of the package the section is about)
BARE_FILE = re.compile(r"`([A-Za-z0-9_]+\.(?:py|smk))`")


# where a file named alone may live (not results/ or resources/: outputs are not named as code is)
CODE_FOLDERS = ("src", "workflow", "tests", "config", "docs", "benchmarks", "profiles")


def prose_documents() -> list[Path]:
    return [*sorted(REPO_ROOT.glob("docs/*.md")), REPO_ROOT / "README.md", REPO_ROOT / "config" / "README.md"]


def missing_files(paths: list[Path], root: Path = REPO_ROOT) -> list[str]:
    """Files the docs name as ``benchval/...`` (under src/) or by their name alone (anywhere in the
    repository) that do not exist."""
    names = {path.name for folder in CODE_FOLDERS if (root / folder).is_dir() for path in (root / folder).rglob("*")}
    missing = []
    for path in paths:
        for line_number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            gone = [p for p in PACKAGE_PATH.findall(line) if not (root / "src" / p).exists()]
            gone += [name for name in BARE_FILE.findall(line) if name not in names]
            missing += [f"{path.relative_to(root)}:{line_number}: {name}" for name in gone]
    return missing


def test_every_file_the_prose_names_exists():
    assert missing_paths([REPO_ROOT / "config" / "README.md"]) == []
    assert missing_files(prose_documents()) == []


def test_a_bare_or_package_relative_file_that_is_gone_is_caught(tmp_path):
    (tmp_path / "src" / "benchval" / "atlas").mkdir(parents=True)
    (tmp_path / "src" / "benchval" / "atlas" / "registry.py").write_text("")
    doc = tmp_path / "doc.md"
    doc.write_text(
        "## Model identity (`registry.py`, `names.py`)\n"
        "Code: benchval/atlas/registry.py and benchval/atlas/names.py (src/benchval/atlas/names.py: the test above).\n"
    )
    assert missing_files([doc], tmp_path) == ["doc.md:1: names.py", "doc.md:2: benchval/atlas/names.py"]
