# Tasks: raw files (mirror or download) -> results/tasks/{task}.parquet (+ .meta.json, .filters.json).
# Datasets and tasks are declared in the task folders (src/benchval/tasks/catalogue/<task>/) and in
# config/catalogue/*.yaml; see docs/tasks.md and
# docs/data-contract.md (section 1). A task whose data is unavailable here (GoldenSwag needs the
# Hugging Face Hub) still gets its three files: no items, meta "unavailable" = the reason.

from benchval.plumbing.folders import DOWNLOADS_DIR, workflow_root
from benchval.jobs.layout import TASK_FILTERS, TASK_ITEMS, TASK_META, alternatives, workflow_layout
from benchval.jobs.reruns import canonical, script_code_for, workdir_relative
from benchval.jobs.rule_settings import config_provider_for
from benchval.jobs.job_logs import benchmarks, logs
from benchval.jobs.rules import tasks as task_functions
from benchval.tasks.config_keys import ITEM_KEYS as _ITEM_KEYS

script_code = script_code_for(workflow.current_basedir)  # docs/workflow.md, "What reruns when"
config_provider = config_provider_for(config)  # the one way a rule names its config keys
LAYOUT = workflow_layout(config)


rule fetch_raw_file:
    output:
        f"{DOWNLOADS_DIR}/{{path}}",
    log:
        logs("fetch_raw_file/{path}.log"),
    benchmark:
        benchmarks("fetch_raw_file/{path}.tsv")
    wildcard_constraints:
        path=alternatives(task_functions.declared_paths(config["datasets"])),
    conda:
        "../envs/benchval.yaml"
    params:
        entry=lambda w: task_functions.declared_file(config, w.path),  # derived: keys named in its docstring
        mirror=workdir_relative(LAYOUT.mirror),  # derived: mirror, workdir-relative
        code=script_code("fetch_raw_file.py"),
    script:
        "../scripts/fetch_raw_file.py"


rule prepare_task:
    input:
        # by content (task_functions.task_raw_files)
        unpack(
            lambda w: {
                key: ancient(path) for key, path in task_functions.task_raw_files(config, LAYOUT, w.task).items()
            }
        ),
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
        sample=lambda w: canonical(task_functions.task_sample(config, w.task)),  # derived: keys named in its docstring
        seed=config_provider("seed"),
        checksums=lambda w: canonical(task_functions.task_checksums(config, w.task)),  # derived: keys named in its docstring
        exclusion=task_functions.task_exclusion(config, workflow_root(workflow.basedir)),  # derived: keys named in its docstring
        code=script_code("prepare_task.py"),
        adapter_code=task_functions.adapter_code(config),  # derived: keys named in its docstring
    script:
        "../scripts/prepare_task.py"
