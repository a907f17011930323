"""A task's files as its rules read them: the raw files the catalogue declares, and its hand-exclusion list
(rules fetch_raw_file and prepare_task, workflow/rules/tasks.smk)."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from benchval.plumbing.raw_files import DataFile, dataset_files


def declared_paths(datasets: Mapping[str, Mapping]) -> list[str]:
    """Every raw file the catalogue declares (config/catalogue/), by its path under the mirror."""
    return sorted({f.path for name in datasets for f in dataset_files(datasets, name).values()})


def task_data_files(config: Mapping, task: str) -> dict[str, DataFile]:
    """{file key: declared file} of the dataset of ``task`` (config ``tasks.<task>.dataset``); {} without one."""
    dataset = config["tasks"][task].get("dataset")
    return {} if dataset is None else dataset_files(config["datasets"], dataset)


def task_exclusion(entry: Mapping, root: str | Path) -> dict | None:
    """The exclusion param of a task's config ``entry``: its `exclude_ids` list read by
    :func:`benchval.tasks.prepare.exclusion_param` (its ids, not its path, so that editing the list reruns the
    task). Relative lists live in the workflow's config/ folder, under ``root`` (the workflow's repository),
    wherever Snakemake runs. None without one."""
    from benchval.tasks.prepare import exclusion_param

    configured = entry.get("exclude_ids")
    return exclusion_param(configured, Path(root) / configured) if configured else None
