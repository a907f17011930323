"""Rule commonwhy_eval_check_questions: the judge check set's questions (seeded, capped per family)."""

from benchval.commonwhy.eval.steps.commonwhy_eval_check_questions import stage_check_questions
from benchval.plumbing.job import start_job
from benchval.plumbing.raw_file_checks import verify_raw_files

sm = snakemake  # noqa: F821
job = start_job(sm, light=False)  # the model jobs wait for it
verify_raw_files([sm.input.rule_queries], **job.params["raw_files"])  # the raw file against its declared sha256
stage_check_questions(
    sm.input.published,
    sm.input.constructed,
    job.params["settings"],
    job.params["seed"],
    sm.output.questions,
    sm.output.report,
    rule_queries=sm.input.rule_queries,
)
