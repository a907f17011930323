"""Rule commonwhy_eval_check_questions: the judge check set's questions (seeded, capped per family)."""

from benchval.commonwhy.eval.steps.commonwhy_eval_check_questions import stage_check_questions
from benchval.plumbing.job import start_job

sm = snakemake  # noqa: F821
job = start_job(sm, light=False)  # the model jobs wait for it
stage_check_questions(
    sm.input.published,
    sm.input.constructed,
    job.params["settings"],
    job.params["seed"],
    sm.output.questions,
    sm.output.report,
    rule_queries=sm.input.rule_queries,
)
