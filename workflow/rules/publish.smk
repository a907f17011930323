# The user-facing folders: results/figures/{study}/ and results/tables/{study}/ gather what each
# study's analysis wrote under results/studies/{study}/, plus the task sizes of every scored task.
# They are directory outputs checked against a manifest of their files: deleting a published file
# makes the check file newer when this file is read, so `publish` (and only it) runs again
# (benchval.plumbing.published_folders).
from benchval.jobs.layout import TASK_FILTERS, TASK_META, TASK_SIZES
from benchval.jobs.layout import workflow_layout
import sys

from benchval.plumbing.command_line import is_dry_run
from benchval.plumbing.published_folders import PUBLISHED_MANIFEST, check_input
from benchval.jobs.reruns import canonical, script_code_for
from benchval.jobs.rule_settings import config_provider_for
from benchval.jobs.job_logs import benchmarks, logs
from benchval.atlas.atlas_outputs import atlas_outputs
from benchval.items.item_files import item_outputs
from benchval.plumbing.folders import RESULTS

# The files these rules write, beside them (relative to the working directory; other rule files name
# them as rules.<rule>.output.<key>)
PUBLISHED_FIGURES = f"{RESULTS}/figures"
PUBLISHED_TABLES = f"{RESULTS}/tables"

script_code = script_code_for(workflow.current_basedir)  # docs/workflow.md, "What reruns when"
config_provider = config_provider_for(config)  # the one way a rule names its config keys
LAYOUT = workflow_layout(config)
PUBLISHED_CHECK_INPUT = check_input(dry_run=is_dry_run(sys.argv))  # a dry run writes nothing
# Of each scored task's entry only what the task-size table reads (its `paper_n`), so that editing a
# label or a filter setting does not rerun it
_TASK_PAPER_N = {task: config_provider(("tasks", task), "paper_n") for task in LAYOUT.scored_tasks()}


rule task_sizes:
    input:
        metas=expand(TASK_META, task=LAYOUT.scored_tasks()),
        filters=expand(TASK_FILTERS, task=LAYOUT.scored_tasks()),
    output:
        TASK_SIZES,
    log:
        logs("task_sizes/task_sizes.log"),
    benchmark:
        benchmarks("task_sizes/task_sizes.tsv")
    localrule: True
    conda:
        "../envs/benchval.yaml"
    params:
        tasks=canonical({task: entry for task, entry in _TASK_PAPER_N.items() if entry}),  # derived: tasks.<task>.paper_n
        # the reasons of the scored tasks' deviations from their paper_n (none without scored tasks)
        deviations=config_provider("paper_n_deviations", *LAYOUT.scored_tasks()) if LAYOUT.scored_tasks() else {},  # derived: only the scored tasks' entries
        code=script_code("task_sizes.py"),
    script:
        "../scripts/task_sizes.py"


rule publish:
    input:
        figures=LAYOUT.published_figures(),
        tables=LAYOUT.published_tables(),
        task_sizes=TASK_SIZES,
        published_check=PUBLISHED_CHECK_INPUT,  # newer than the folders when a published file is gone
        # the report's pages (report.smk), so that `snakemake --report` works right after
        # `snakemake results/figures` (README)
        report=lambda w: rules.report_inputs.input,
        # the validity atlas (atlas.smk, docs/atlas.md): the real-data result of the default run
        atlas=lambda w: atlas_outputs(config, LAYOUT.studies),
        # the item-level validity studies (items.smk, docs/items.md): also part of the default run
        item_studies=lambda w: item_outputs(config, LAYOUT.mirror),
    output:
        figures=directory(PUBLISHED_FIGURES),
        tables=directory(PUBLISHED_TABLES),
        manifest=PUBLISHED_MANIFEST,
    log:
        logs("publish/publish.log"),
    benchmark:
        benchmarks("publish/publish.tsv")
    localrule: True
    conda:
        "../envs/benchval.yaml"
    params:
        code=script_code("publish.py"),
    script:
        "../scripts/publish.py"
