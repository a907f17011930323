"""Rule commonwhy_eval_judge: judge every system's answers (only with a judge that passed its check)."""

from benchval.commonwhy.eval import run

sm = snakemake  # noqa: F821
run.start_job(sm)
run.stage_judge(
    sm.input.questions,
    dict(zip(sm.params.systems, sm.input.answers)),
    sm.params.settings,
    sm.params.models,
    dict(zip(sm.params.systems, sm.output.judged)),
    sm.input.validity,
)
