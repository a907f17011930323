"""Reruns (issue 47, "Stale results" and "Code that changed without a rerun"): a study's file is an input the
plan checks, and a script's code digest covers every module it can import, the lazily imported ones included.

Before: `workflow/scripts/prepare_model.py` imports `prepare_model` through the lazy `benchval.models` package
entry (`__getattr__` and a name -> module table), so its digest left out models/prepare.py, gguf.py, wheels.py
and lock.py: editing them reran nothing. A csv study whose `path:` names no file planned (the old tables stayed).
"""

from __future__ import annotations

import shutil

from benchval.jobs import reruns
from benchval.jobs.reruns import code_digest
from benchval.plumbing.folders import REPO_ROOT
from tests.silent.conftest import csv_study, lines_with

SCRIPT = REPO_ROOT / "workflow" / "scripts" / "prepare_model.py"
LAZY = ["benchval/models/prepare.py", "benchval/models/gguf.py", "benchval/models/wheels.py", "benchval/models/lock.py"]


def test_the_digest_of_a_script_covers_the_modules_it_imports_lazily():
    digest = code_digest(SCRIPT)
    assert [name for name in LAZY if name not in digest] == []


def test_editing_a_lazily_imported_module_changes_the_digest(tmp_path):
    package = tmp_path / "benchval"
    shutil.copytree(REPO_ROOT / "src" / "benchval", package, ignore=shutil.ignore_patterns("__pycache__"))
    before = code_digest(SCRIPT, package)
    with (package / "models" / "wheels.py").open("a") as handle:
        handle.write("\n# an edit\n")
    reruns._file_hash.cache_clear()  # one process hashes each file once; this one edits between two digests
    after = code_digest(SCRIPT, package)
    assert {k for k in after if after[k] != before.get(k)} == {"benchval/models/wheels.py"}


def test_an_unrelated_lazy_export_stays_out_of_the_digest():
    """Only what the script can import enters: not every module the package could load."""
    assert "benchval/models/loader.py" not in code_digest(SCRIPT)  # load_prepared, not imported by it


def test_a_csv_study_whose_file_is_missing_fails_at_planning(dry_run, tmp_path):
    study = csv_study(tmp_path / "gone.csv", {"a": "a"})
    result = dry_run({"studies": {"mine": study}}, "study_mine")
    assert result.returncode == 1
    [line] = lines_with(result, "studies.mine.path")
    assert f"{tmp_path / 'gone.csv'}" in line and "does not exist" in line, line
