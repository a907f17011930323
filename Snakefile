# benchval: does a benchmark predict what it claims to measure?
# Main job:  snakemake --cores 8 results/figures      (see README.md and docs/)
from pathlib import Path

from snakemake.utils import min_version

min_version("9.0")


configfile: "config/config.yaml"


# Task and dataset definitions: every config/catalogue/*.yaml merges into the config.
for catalogue in sorted(Path(workflow.basedir, "config", "catalogue").glob("*.yaml")):
    workflow.configfile(str(catalogue))


include: "workflow/rules/common.smk"
include: "workflow/rules/models.smk"
include: "workflow/rules/tasks.smk"
include: "workflow/rules/scoring.smk"
include: "workflow/rules/evaluate.smk"
include: "workflow/rules/atlas.smk"
include: "workflow/rules/analysis.smk"
include: "workflow/rules/lmeval.smk"
include: "workflow/rules/scoreboard.smk"
include: "workflow/rules/robustness.smk"
include: "workflow/rules/items.smk"
include: "workflow/rules/commonwhy.smk"
include: "workflow/rules/commonwhy_eval.smk"
include: "workflow/rules/publish.smk"
include: "workflow/rules/report.smk"


report: "workflow/report/workflow.rst"


# The one target; a cheap bookkeeping rule says `localrule: True` in its own body.
rule all:
    default_target: True
    input:
        "results/figures",
        "results/tables",
        commonwhy_outputs() if LAYOUT.commonwhy_in_default_target() else [],
        commonwhy_eval_outputs(),
        items_outputs(),
        rules.report_inputs.input,
