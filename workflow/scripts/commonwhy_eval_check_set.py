"""Rule commonwhy_eval_check_set: the judge's labelled check set from the data, the KG and the models' answers."""

from benchval.commonwhy.eval.steps.commonwhy_eval_check_set import stage_check_set
from benchval.plumbing.job import start_job
from benchval.plumbing.raw_file_checks import verify_raw_files

sm = snakemake  # noqa: F821
job = start_job(sm, light=False)  # the model jobs wait for it
verify_raw_files([sm.input.rule_queries], **job.params["raw_files"])  # the raw file against its declared sha256
stage_check_set(
    sm.input.published,
    sm.input.constructed,
    job.params["kg"],
    sm.input.get("store"),
    job.params["settings"],
    job.params["seed"],
    sm.output.pairs,
    sm.output.report,
    answers=dict(zip(job.params["systems"], sm.input.answers)),
    rule_queries=sm.input.rule_queries,
    natural_labels=job.params["natural_labels_file"],
)
