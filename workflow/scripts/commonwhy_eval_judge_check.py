"""Rule commonwhy_eval_judge_check: one judge on the check set (verdicts, measures per type, validity)."""

from benchval.commonwhy.eval.steps.commonwhy_eval_judge_check import stage_judge_check
from benchval.plumbing.job import start_job

sm = snakemake  # noqa: F821
job = start_job(sm, torch=True)
stage_judge_check(
    sm.input.pairs,
    job.wildcards["judge"],
    job.params["settings"],
    job.params["models"],
    sm.output.verdicts,
    sm.output.scores,
    sm.output.validity,
    job.params["seed"],
    canaries=sm.input.canaries,
)
