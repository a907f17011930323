# Tasks: raw files (mirror or download) -> results/tasks/{task}.parquet (+ .meta.json, .filters.json).
# Datasets and tasks are declared in the task folders (src/benchval/tasks/catalogue/<task>/) and in
# config/catalogue/*.yaml; see docs/tasks.md and
# docs/data-contract.md (section 1). A task whose data is unavailable here (GoldenSwag needs the
# Hugging Face Hub) still gets its three files: no items, meta "unavailable" = the reason.

from pathlib import Path

from benchval.plumbing.raw_files import dataset_files as _dataset_files
from benchval.plumbing.raw_files import find_declared as _find_declared
from benchval.plumbing.raw_files import resolve as _resolve_data_path
from benchval.plumbing.folders import DOWNLOADS_DIR, workflow_root
from benchval.jobs.layout import TASK_FILTERS, TASK_ITEMS, TASK_META, alternatives, workflow_layout
from benchval.jobs.reruns import canonical, code_digest, script_code_for, workdir_relative
from benchval.tasks.registry import adapter_file

script_code = script_code_for(workflow.current_basedir)  # docs/workflow.md, "What reruns when"
LAYOUT = workflow_layout(config)
_DECLARED_PATHS = sorted(
    {f.path for name in config["datasets"] for f in _dataset_files(config["datasets"], name).values()}
)


def _task_raw_files(wildcards):
    """{file key: path}: the mirror copy when present, else resources/data/<path> (made by fetch_raw_file)."""
    spec = config["tasks"][wildcards.task]
    files = {}
    if spec.get("dataset") is not None:
        for key, data_file in _dataset_files(config["datasets"], spec["dataset"]).items():
            files[key] = workdir_relative(_resolve_data_path(data_file.path, LAYOUT.mirror))
    return files


def _task_exclusion(wildcards):
    """The task's hand-exclusion list, read here: its ids are a param (benchval.tasks.prepare.exclusion_param)."""
    from benchval.tasks.prepare import exclusion_param

    configured = config["tasks"][wildcards.task].get("exclude_ids")
    if not configured:
        return None
    # Relative exclusion lists live in the workflow's config/ folder, wherever Snakemake runs.
    return exclusion_param(configured, workflow_root(workflow.basedir) / configured)


def _task_checksums(wildcards):
    """{file key: declared sha256}, checked by prepare_task (mirror copies are not fetched, so not checked there)."""
    dataset = config["tasks"][wildcards.task].get("dataset")
    if dataset is None:
        return {}
    return {key: data_file.sha256 for key, data_file in _dataset_files(config["datasets"], dataset).items()}


def _task_sample(wildcards):
    """Only this task's sample size, so that changing another task's size does not rerun this one."""
    sample = config["sample"]
    return {"n_items": sample["per_task"].get(wildcards.task, sample["n_items"])}


# Keys of a task's config that only name or present it: editing them must not rebuild its items
# (and so rerun no model job); rule score_table passes them to the task table instead.
PRESENTATION_KEYS = ("label",)


def _adapter_code(wildcards):
    """The code of the module that registers the task's adapter (its task folder's adapter.py, and what that
    imports): editing one task folder reruns the tasks that use its adapter, no other (docs/tasks.md)."""
    return code_digest(adapter_file(config["tasks"][wildcards.task]["adapter"]))


def _task_config(wildcards):
    spec = config["tasks"][wildcards.task]
    return canonical({key: value for key, value in spec.items() if key not in PRESENTATION_KEYS})


rule fetch_raw_file:
    output:
        f"{DOWNLOADS_DIR}/{{path}}",
    log:
        "logs/fetch_raw_file/{path}.log",
    benchmark:
        "logs/benchmarks/fetch_raw_file/{path}.tsv"
    wildcard_constraints:
        path=alternatives(_DECLARED_PATHS),
    params:
        entry=lambda w: canonical(vars(_find_declared(config["datasets"], w.path))),
        mirror=workdir_relative(LAYOUT.mirror),
        code=script_code("fetch_raw_file.py"),
    script:
        "../scripts/fetch_raw_file.py"


rule prepare_task:
    input:
        unpack(_task_raw_files),
    output:
        table=TASK_ITEMS,
        meta=TASK_META,
        filters=TASK_FILTERS,
    log:
        "logs/prepare_task/{task}.log",
    benchmark:
        "logs/benchmarks/prepare_task/{task}.tsv"
    priority: 5  # feeds the model jobs (docs/workflow.md "Scheduling")
    params:
        task_config=_task_config,
        sample=lambda w: canonical(_task_sample(w)),
        seed=config["seed"],
        checksums=lambda w: canonical(_task_checksums(w)),
        exclusion=_task_exclusion,
        code=script_code("prepare_task.py"),
        adapter_code=_adapter_code,
    script:
        "../scripts/prepare_task.py"
