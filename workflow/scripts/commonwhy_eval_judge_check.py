"""Rule commonwhy_eval_judge_check: one judge on the check set (verdicts, measures per type, validity)."""

from benchval.commonwhy.eval import run
from benchval.joblog import log_to_file
from benchval.threads import job_torch_threads

sm = snakemake  # noqa: F821
log_to_file(sm.log[0])
run.set_threads(job_torch_threads(sm))
run.stage_judge_check(
    sm.input.pairs,
    sm.wildcards.judge,
    sm.params.settings,
    sm.params.models,
    sm.output.verdicts,
    sm.output.scores,
    sm.output.validity,
    sm.params.seed,
)
