"""Rule commonwhy_eval_answer: one system answers every sampled question (resumable)."""

from benchval.commonwhy.eval import run

sm = snakemake  # noqa: F821
run.start_job(sm)
run.stage_answer(
    sm.input.questions,
    sm.wildcards.system,
    sm.params.settings,
    sm.params.models,
    sm.output.answers,
    sm.params.checkpoint,
    sm.output.timing,
)
