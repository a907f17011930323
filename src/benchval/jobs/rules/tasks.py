"""Functions of workflow/rules/tasks.smk: a task's raw files, their declarations and its settings."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from benchval.jobs.layout import Layout
from benchval.jobs.reruns import canonical, code_digest, code_param, workdir_relative
from benchval.plumbing.raw_files import dataset_files, find_declared, resolve
from benchval.tasks.registry import adapter_file


def declared_paths(datasets: Mapping) -> list[str]:
    """Every raw file the catalogue declares (config/catalogue/), by its path under the mirror."""
    return sorted({f.path for name in datasets for f in dataset_files(datasets, name).values()})


def declared_file(config: Mapping, path: str) -> object:
    """The catalogue's declaration of the raw file at ``path`` (config/catalogue/: url, sha256, ...)."""
    return canonical(vars(find_declared(config["datasets"], path)))


def task_raw_files(config: Mapping, layout: Layout, task: str) -> dict[str, str]:
    """{file key: path}: the mirror copy when present, else resources/data/<path> (made by fetch_raw_file).

    Inputs by content, not by modification time: the rule makes each ancient() and its declared sha256 is
    a param (`checksums`), which prepare_task checks the file against before reading it. A mirror copied
    again with the same bytes (new mtimes) reruns nothing; new bytes come with a new declared sha256 in the
    catalogue, which reruns the task (a file that no longer matches its declaration fails the job)."""
    spec = config["tasks"][task]
    files = {}
    if spec.get("dataset") is not None:
        for key, data_file in dataset_files(config["datasets"], spec["dataset"]).items():
            files[key] = workdir_relative(resolve(data_file.path, layout.mirror))
    return files


def task_exclusion(config: Mapping, root: str | Path):
    """The param function of the task's hand-exclusion list, read here: its ids are the param
    (benchval.tasks.prepare.exclusion_param). Relative lists live in the workflow's config/ folder
    (``root``: the workflow's repository), wherever Snakemake runs."""

    def exclusion(wildcards):
        from benchval.tasks.prepare import exclusion_param

        configured = config["tasks"][wildcards.task].get("exclude_ids")
        if not configured:
            return None
        return exclusion_param(configured, Path(root) / configured)

    return exclusion


def task_checksums(config: Mapping, task: str) -> dict[str, str]:
    """{file key: declared sha256}, checked by prepare_task (mirror copies are not fetched, so not checked there)."""
    dataset = config["tasks"][task].get("dataset")
    if dataset is None:
        return {}
    return {key: data_file.sha256 for key, data_file in dataset_files(config["datasets"], dataset).items()}


def task_sample(config: Mapping, task: str) -> dict[str, int]:
    """Only this task's sample size (keys sample.per_task.<task>, else sample.n_items), so that changing
    another task's size does not rerun this one."""
    sample = config["sample"]
    return {"n_items": sample["per_task"].get(task, sample["n_items"])}


def adapter_code(config: Mapping):
    """The param function of the code of the module that registers the task's adapter (its task folder's
    adapter.py, and what that imports): editing one task folder reruns the tasks that use its adapter, no
    other (docs/tasks.md)."""
    return lambda wildcards: _adapter_code(config["tasks"][wildcards.task]["adapter"])


def _adapter_code(adapter: str) -> str:
    """``<module>.py@<digest>`` (benchval.jobs.reruns.code_param) of the adapter's module and its imports."""
    return code_param(code_digest(adapter_file(adapter)))
