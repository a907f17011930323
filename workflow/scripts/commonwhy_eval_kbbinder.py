"""Rule commonwhy_eval_kbbinder: the KB-Binder-style baseline."""

from benchval.commonwhy.eval import run

sm = snakemake  # noqa: F821
run.start_job(sm)
run.stage_kbbinder(sm.input.questions, run.BaselineRun.of_job(sm))
