"""Shared fixtures for the task tests: the raw-data mirror and a way to run one adapter."""

from __future__ import annotations

from pathlib import Path

import pytest
from benchval.tasks.base import AdapterInput, FilterReport, get_adapter
from benchval.tasks.registry import folder_catalogue

COMMONSENSE_ROLES = ("cs_original", "cs_reworked", "cs_variant")
SEED = 20261130


@pytest.fixture(scope="session")
def catalogue() -> dict:
    """The commonsense task folders' tasks, and every dataset the folders declare."""
    return folder_catalogue(COMMONSENSE_ROLES)


@pytest.fixture(scope="session")
def task_files(catalogue, mirror):
    """task name -> {file key: mirror path}, as the workflow resolves them."""

    def files(task: str) -> dict[str, Path]:
        dataset = catalogue["tasks"][task]["dataset"]
        return {key: mirror / spec["path"] for key, spec in catalogue["datasets"][dataset]["files"].items()}

    return files


@pytest.fixture(scope="session")
def run_adapter(catalogue):
    """Run a task's adapter with the catalogue's options (overridable) on the given files."""

    def run(task: str, files: dict, options: dict | None = None, scoring_mode: str | None = None, seed: int = SEED):
        spec = catalogue["tasks"][task]
        merged = dict(spec.get("options") or {}) if options is None else options
        report = FilterReport(task)
        mode = scoring_mode or spec["scoring_mode"]
        items = list(get_adapter(spec["adapter"])(AdapterInput(task, files, merged, seed, mode), report))
        return items, report

    return run
