"""Rule commonwhy_eval_judge_check: one judge on the check set (verdicts, measures per type, validity)."""

from benchval.commonwhy.eval import run

sm = snakemake  # noqa: F821
run.start_job(sm)
run.stage_judge_check(
    sm.input.pairs,
    sm.wildcards.judge,
    sm.params.settings,
    sm.params.models,
    sm.output.verdicts,
    sm.output.scores,
    sm.output.validity,
    sm.params.seed,
    canaries=sm.input.canaries,
)
