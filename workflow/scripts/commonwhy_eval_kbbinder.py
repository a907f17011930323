"""Rule commonwhy_eval_kbbinder: the KB-Binder-style baseline."""

from benchval.commonwhy.eval.steps.commonwhy_eval_baselines import stage_kbbinder
from benchval.plumbing.job import start_job

sm = snakemake  # noqa: F821
job = start_job(sm, torch=True)
stage_kbbinder(
    sm.input.questions,
    job.params["settings"],
    job.params["models"],
    job.params["kg"],
    sm.input.get("store"),
    sm.output.answers,
    sm.output.timing,
)
