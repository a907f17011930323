"""The silent-failure suite (issue 47): each test is a path a user takes with their own config or data that
used to end with exit code 0 and a wrong, stale or empty result, and must now either do what was asked or
stop before computing, in one line naming the key, file, line or task.

Start-up errors are checked through ``snakemake -n`` (they stop at workflow/rules/common.smk, within seconds);
data errors through the importer functions the jobs call.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from benchval.plumbing.folders import REPO_ROOT
from benchval.testing.snakemake_run import offline_env

SNAKEMAKE = str(Path(sys.executable).with_name("snakemake"))


class DryRun:
    """``snakemake -n`` of the real workflow in a fresh working directory, with one overlay config."""

    def __init__(self, folder: Path):
        self.folder = folder

    def __call__(self, overlay: dict | str | None = None, *args: str, timeout: float = 300, dry: bool = True):
        command = [SNAKEMAKE, *(["-n"] if dry else []), "--cores", "1", "--directory", str(self.folder / "run")]
        command += [*args, "--configfile", str(REPO_ROOT / "config/config.yaml")]  # targets before --configfile
        if overlay is not None:
            path = self.folder / "overlay.yaml"
            path.write_text(overlay if isinstance(overlay, str) else yaml.safe_dump(overlay))
            command.append(str(path))
        return subprocess.run(
            command,
            cwd=REPO_ROOT,
            env=offline_env(PYTHONPATH=str(REPO_ROOT / "src"), BENCHVAL_PLAN_WITHOUT_HUB="1"),
            capture_output=True,
            text=True,
            timeout=timeout,
        )


@pytest.fixture()
def dry_run(tmp_path) -> DryRun:
    return DryRun(tmp_path)


def lines_with(result: subprocess.CompletedProcess, text: str) -> list[str]:
    """The output lines (stdout and stderr) that contain ``text``."""
    return [line for line in (result.stdout + result.stderr).splitlines() if text in line]


def csv_study(path: Path, columns: dict[str, str], **keys) -> dict:
    """A csv study over ``path`` whose tasks are ``columns`` (task -> column), every one a downstream task."""
    return {
        "source": "csv",
        "path": str(path),
        "columns": {"model": "model", "family": "family", "size_b": "size_b"},
        "tasks": {task: {"column": column, "role": "downstream"} for task, column in columns.items()},
        **keys,
    }
