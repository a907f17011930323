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
from benchval.jobs.rule_settings import config_provider_for
from benchval.jobs.job_logs import add_logs_and_benchmarks
from benchval.tasks.config_keys import ITEM_KEYS as _ITEM_KEYS

script_code = script_code_for(workflow.current_basedir)  # docs/workflow.md, "What reruns when"
config_provider = config_provider_for(config)  # the one way a rule names its config keys
LAYOUT = workflow_layout(config)
_DECLARED_PATHS = sorted(
    {f.path for name in config["datasets"] for f in _dataset_files(config["datasets"], name).values()}
)


def _declared_file(path):
    """The catalogue's declaration of the raw file at ``path`` (config/catalogue/: url, sha256, ...)."""
    return canonical(vars(_find_declared(config["datasets"], path)))


def _task_raw_files(wildcards):
    """{file key: path}: the mirror copy when present, else resources/data/<path> (made by fetch_raw_file).

    Inputs by content, not by modification time: each is ancient() and its declared sha256 is a param
    (`checksums`), which prepare_task checks the file against before reading it. A mirror copied again
    with the same bytes (new mtimes) reruns nothing; new bytes come with a new declared sha256 in the
    catalogue, which reruns the task (a file that no longer matches its declaration fails the job)."""
    spec = config["tasks"][wildcards.task]
    files = {}
    if spec.get("dataset") is not None:
        for key, data_file in _dataset_files(config["datasets"], spec["dataset"]).items():
            files[key] = ancient(workdir_relative(_resolve_data_path(data_file.path, LAYOUT.mirror)))
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
    """Only this task's sample size (keys sample.per_task.<task>, else sample.n_items), so that changing
    another task's size does not rerun this one."""
    sample = config["sample"]
    return {"n_items": sample["per_task"].get(wildcards.task, sample["n_items"])}


def _adapter_code(wildcards):
    """The code of the module that registers the task's adapter (its task folder's adapter.py, and what that
    imports): editing one task folder reruns the tasks that use its adapter, no other (docs/tasks.md)."""
    return code_digest(adapter_file(config["tasks"][wildcards.task]["adapter"]))


rule fetch_raw_file:
    output:
        f"{DOWNLOADS_DIR}/{{path}}",
    wildcard_constraints:
        path=alternatives(_DECLARED_PATHS),
    conda:
        "../envs/benchval.yaml"
    params:
        entry=lambda w: _declared_file(w.path),
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
    priority: 5  # feeds the model jobs (docs/workflow.md "Scheduling")
    conda:
        "../envs/benchval.yaml"
    params:
        # the keys that build the items; not `label` (benchval.tasks.config_keys)
        task_config=config_provider("tasks.{task}", *_ITEM_KEYS),
        sample=lambda w: canonical(_task_sample(w)),
        seed=config_provider("seed"),
        checksums=lambda w: canonical(_task_checksums(w)),
        exclusion=_task_exclusion,
        code=script_code("prepare_task.py"),
        adapter_code=_adapter_code,
    script:
        "../scripts/prepare_task.py"


# every rule's log and benchmark file, from its name (benchval.jobs.job_logs)
add_logs_and_benchmarks(workflow.rules, workflow.current_basedir, workflow.modifier.path_modifier)
