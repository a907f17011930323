"""Rule commonwhy_eval_kgr: the KGR-style baseline (revises the backbone's own answers)."""

from benchval.commonwhy.eval.steps.commonwhy_eval_baselines import stage_kgr
from benchval.plumbing.job import start_job

sm = snakemake  # noqa: F821
job = start_job(sm, torch=True)
stage_kgr(
    sm.input.questions,
    sm.input.drafts,
    job.params["settings"],
    job.params["models"],
    job.params["kg"],
    sm.input.get("store"),
    sm.output.answers,
    sm.output.timing,
)
