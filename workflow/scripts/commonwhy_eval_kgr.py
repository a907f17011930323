"""Rule commonwhy_eval_kgr: the KGR-style baseline (revises the backbone's own answers)."""

from benchval.commonwhy.eval import run

sm = snakemake  # noqa: F821
run.start_job(sm)
run.stage_kgr(sm.input.questions, sm.input.drafts, run.BaselineRun.of_job(sm))
