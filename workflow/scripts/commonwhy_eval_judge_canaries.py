"""Rule commonwhy_eval_judge_canaries: the rule-based canary judges through the judge gate."""

from benchval.commonwhy.eval.steps.commonwhy_eval_judge_canaries import stage_judge_canaries
from benchval.plumbing.job import start_job

sm = snakemake  # noqa: F821
job = start_job(sm, light=False)  # the model jobs wait for it
stage_judge_canaries(sm.input.pairs, job.params["settings"], job.params["seed"], sm.output.scores, sm.output.validity)
