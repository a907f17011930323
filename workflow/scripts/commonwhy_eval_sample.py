"""Rule commonwhy_eval_sample: the seeded question sample."""

from benchval.commonwhy.eval.steps.commonwhy_eval_sample import stage_sample
from benchval.plumbing.job import start_job

sm = snakemake  # noqa: F821
job = start_job(sm, light=False)  # the model jobs wait for it
stage_sample(
    sm.input.published or None,
    sm.input.constructed or None,
    job.params["settings"],
    job.params["seed"],
    sm.output.questions,
    sm.output.report,
)
