"""Rule commonwhy_eval_sample: the seeded question sample."""

from benchval.commonwhy.eval import run

sm = snakemake  # noqa: F821
run.start_job(sm)
run.stage_sample(
    sm.input.published or None,
    sm.input.constructed or None,
    sm.params.settings,
    sm.params.seed,
    sm.output.questions,
    sm.output.report,
)
