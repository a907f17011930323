"""Formatting and lint by tools, as CI's part of the checks: ruff (format and check, configured in
pyproject.toml) for Python, snakefmt for the Snakefile and the rule files (ruff does not read them).
The same hooks run locally through .pre-commit-config.yaml."""

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from benchval.plumbing.folders import REPO_ROOT

BIN = Path(sys.executable).parent
SNAKE_FILES = ["workflow/Snakefile", "workflow/rules", "tests/report/toy/Snakefile", "tests/slurm/toy/Snakefile"]


def tool(name: str) -> str:
    path = BIN / name
    if not path.exists():
        found = shutil.which(name)
        if not found:
            pytest.fail(f"{name} is not installed: ./install.sh installs it (the `test` extra)")
        return found
    return str(path)


def run(*command: str) -> subprocess.CompletedProcess:
    return subprocess.run(command, cwd=REPO_ROOT, capture_output=True, text=True, timeout=300, check=False)


def test_python_is_formatted_by_ruff():
    result = run(tool("ruff"), "format", "--check", ".")
    assert result.returncode == 0, f"run `ruff format .`:\n{result.stdout}{result.stderr}"


def test_python_passes_ruff_check():
    result = run(tool("ruff"), "check", ".")
    assert result.returncode == 0, f"run `ruff check --fix .` and fix the rest:\n{result.stdout}{result.stderr}"


def test_snakemake_files_are_formatted_by_snakefmt():
    files = [f for f in SNAKE_FILES if (REPO_ROOT / f).exists()]
    result = run(tool("snakefmt"), "--check", *files)
    assert result.returncode == 0, f"run `snakefmt {' '.join(files)}`:\n{result.stdout}{result.stderr}"
