"""Rules commonwhy_eval_answer and commonwhy_eval_check_answer: one system answers every question (resumable)."""

from benchval.commonwhy.eval.steps.commonwhy_eval_answer import stage_answer
from benchval.plumbing.job import start_job

sm = snakemake  # noqa: F821
job = start_job(sm, torch=True)
stage_answer(
    sm.input.questions,
    job.wildcards["system"],
    job.params["settings"],
    job.params["models"],
    sm.output.answers,
    job.params["checkpoint"],
    sm.output.timing,
)
