"""Rule commonwhy_eval_judge_check_report: the judge check table as an HTML page for the report."""

from benchval.commonwhy.eval.steps.commonwhy_eval_judge_check_report import stage_judge_check_report
from benchval.plumbing.job import start_job

sm = snakemake  # noqa: F821
start_job(sm)
stage_judge_check_report(
    list(sm.input.scores),
    list(sm.input.validity),
    sm.output.table,
    sm.output.page,
    measured=list(sm.input.measured),
    canaries=(sm.input.canary_scores, sm.input.canary_validity),
)
