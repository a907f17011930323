"""Rule commonwhy_eval_judge_check_report: the judge check table as an HTML page for the report."""

from benchval.commonwhy.eval import run
from benchval.joblog import log_to_file

sm = snakemake  # noqa: F821
log_to_file(sm.log[0])
run.stage_judge_check_report(
    list(sm.input.scores),
    list(sm.input.validity),
    sm.output.table,
    sm.output.page,
    measured=list(sm.input.measured),
    canaries=(sm.input.canary_scores, sm.input.canary_validity),
)
