"""Writes the repository's files that are drawn from its code, or with ``--check`` says which differ.

    python -m benchval.project_files.generated_files           # write them (from the repository root)
    python -m benchval.project_files.generated_files --check   # exit 1 and name each one that is stale

The files: docs/architecture.md (the rule graph and the package floors,
:mod:`benchval.project_files.architecture_page`) and workflow/envs/benchval.yaml (the rules' software
environment from pyproject.toml's pins, :mod:`benchval.project_files.environment_file`).
tests/test_generated_files.py fails while either differs from what the code gives now.
"""

from __future__ import annotations

import argparse
import difflib
import sys
from pathlib import Path
from typing import Callable

from benchval.plumbing.folders import REPO_ROOT
from benchval.project_files.architecture_page import PAGE, architecture_page
from benchval.project_files.environment_file import ENVIRONMENT_FILE, environment_text

GENERATED: dict[Path, Callable[[Path], str]] = {
    ENVIRONMENT_FILE: lambda repo: environment_text((repo / "pyproject.toml").read_text(encoding="utf-8")),
    PAGE: architecture_page,
}


def stale_files(repo: Path = REPO_ROOT, paths: list[Path] | None = None) -> dict[Path, str]:
    """{file: a unified diff from its text to the text the code gives} for every generated file (of ``paths``,
    default all) that differs."""
    stale = {}
    for path in GENERATED if paths is None else paths:
        wanted = GENERATED[path](repo)
        current = (repo / path).read_text(encoding="utf-8") if (repo / path).exists() else ""
        if current != wanted:
            diff = difflib.unified_diff(
                current.splitlines(keepends=True), wanted.splitlines(keepends=True), str(path), f"{path} (generated)"
            )
            stale[path] = "".join(diff)
    return stale


def write_all(repo: Path = REPO_ROOT) -> list[Path]:
    """Writes every generated file; returns those whose text changed."""
    changed = []
    for path, produce in GENERATED.items():
        wanted = produce(repo)
        target = repo / path
        if not target.exists() or target.read_text(encoding="utf-8") != wanted:
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(wanted, encoding="utf-8")
            changed.append(path)
    return changed


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="write nothing; exit 1 if a generated file is stale")
    args = parser.parse_args(argv)
    if args.check:
        stale = stale_files()
        for path, diff in stale.items():
            print(f"{path} is stale: run `python -m benchval.project_files.generated_files`\n{diff}", file=sys.stderr)
        return 1 if stale else 0
    changed = write_all()
    print("written: " + (", ".join(map(str, changed)) if changed else "nothing changed"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
