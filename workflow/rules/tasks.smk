# Tasks: raw files (mirror or download) -> results/tasks/{task}.parquet (+ .meta.json, .filters.json).
# Datasets and tasks are declared in the task folders (src/benchval/tasks/catalogue/<task>/) and in
# config/catalogue/*.yaml; see docs/tasks.md and
# docs/data-contract.md (section 1). A task whose data is unavailable here (GoldenSwag needs the
# Hugging Face Hub) still gets its three files: no items, meta "unavailable" = the reason.

from benchval.plumbing.folders import DOWNLOADS_DIR, workflow_root
from benchval.jobs.layout import TASK_FILTERS, TASK_ITEMS, TASK_META, alternatives, workflow_layout
from benchval.jobs.reruns import canonical, code_digest, code_param, script_code_for, workdir_relative
from benchval.jobs.rule_settings import config_provider_for
from benchval.jobs.job_logs import benchmarks, logs
from benchval.plumbing.raw_files import dataset_files, find_declared, resolve
from benchval.tasks.prepare import exclusion_param
from benchval.tasks.registry import adapter_file
from benchval.tasks.config_keys import ITEM_KEYS as _ITEM_KEYS

script_code = script_code_for(workflow.current_basedir)  # docs/workflow.md, "What reruns when"
config_provider = config_provider_for(config)  # the one way a rule names its config keys
LAYOUT = workflow_layout(config)
# Every raw file the catalogue declares (config/catalogue/), by its path under the mirror
_DECLARED_PATHS = sorted(
    {f.path for name in config["datasets"] for f in dataset_files(config["datasets"], name).values()}
)
# The catalogue's declaration of the raw file at a path (url, sha256, ...)
_declared_file = lambda path: canonical(vars(find_declared(config["datasets"], path)))
# {file key: declared file} of a task's dataset (tasks.<task>.dataset); {} without one
_task_data_files = lambda task: (
    dataset_files(config["datasets"], config["tasks"][task]["dataset"])
    if config["tasks"][task].get("dataset") is not None
    else {}
)
# A task's raw files, by content rather than modification time: the mirror copy when present, else
# resources/data/<path> (made by fetch_raw_file), each ancient(), its declared sha256 a param (`checksums`)
# that prepare_task checks the file against. A mirror copied again with the same bytes (new mtimes) reruns
# nothing; new bytes come with a new declared sha256 in the catalogue, which reruns the task.
_task_raw_files = lambda w: {
    key: ancient(workdir_relative(resolve(f.path, LAYOUT.mirror))) for key, f in _task_data_files(w.task).items()
}
# Only this task's sample size (sample.per_task.<task>, else sample.n_items): another task's edit reruns nothing
_task_sample = lambda task: {"n_items": config["sample"]["per_task"].get(task, config["sample"]["n_items"])}
# The code of the module that registers the task's adapter (its task folder's adapter.py and what that
# imports): editing one task folder reruns the tasks that use its adapter, no other (docs/tasks.md)
_adapter_code = lambda w: code_param(code_digest(adapter_file(config["tasks"][w.task]["adapter"])))
# The task's hand-exclusion list, read here: its ids are the param (benchval.tasks.prepare.exclusion_param).
# Relative lists live in the workflow's config/ folder, wherever Snakemake runs.
_exclude_ids = lambda task: config["tasks"][task].get("exclude_ids")
_exclusion = lambda w: (
    exclusion_param(_exclude_ids(w.task), workflow_root(workflow.basedir) / _exclude_ids(w.task))
    if _exclude_ids(w.task)
    else None
)


rule fetch_raw_file:
    output:
        f"{DOWNLOADS_DIR}/{{path}}",
    log:
        logs("fetch_raw_file/{path}.log"),
    benchmark:
        benchmarks("fetch_raw_file/{path}.tsv")
    wildcard_constraints:
        path=alternatives(_DECLARED_PATHS),
    conda:
        "../envs/benchval.yaml"
    params:
        entry=lambda w: _declared_file(w.path),  # derived: the path's declaration in datasets
        mirror=workdir_relative(LAYOUT.mirror),  # derived: mirror, workdir-relative
        code=script_code("fetch_raw_file.py"),
    script:
        "../scripts/fetch_raw_file.py"


rule prepare_task:
    input:
        unpack(_task_raw_files),  # by content
    output:
        table=TASK_ITEMS,
        meta=TASK_META,
        filters=TASK_FILTERS,
    log:
        logs("prepare_task/{task}.log"),
    benchmark:
        benchmarks("prepare_task/{task}.tsv")
    priority: 5  # feeds the model jobs (docs/workflow.md "Scheduling")
    conda:
        "../envs/benchval.yaml"
    params:
        # the keys that build the items; not `label` (benchval.tasks.config_keys)
        task_config=config_provider("tasks.{task}", *_ITEM_KEYS),
        sample=lambda w: canonical(_task_sample(w.task)),  # derived: sample.per_task.<task>, else sample.n_items
        seed=config_provider("seed"),
        checksums=lambda w: canonical({k: f.sha256 for k, f in _task_data_files(w.task).items()}),  # derived: declared sha256s
        exclusion=_exclusion,  # derived: the ids of tasks.<task>.exclude_ids
        code=script_code("prepare_task.py"),
        adapter_code=_adapter_code,  # derived: the code of tasks.<task>.adapter
    script:
        "../scripts/prepare_task.py"
