"""Rule commonwhy_eval_factscore: FActScore of every system's answers against the KG source."""

from benchval.commonwhy.eval import run

sm = snakemake  # noqa: F821
run.start_job(sm)
run.stage_factscore(
    dict(zip(sm.params.systems, sm.input.answers)),
    dict(zip(sm.params.systems, sm.input.judged)),
    sm.params.settings,
    sm.params.models,
    sm.params.kg,
    sm.input.get("store"),
    dict(zip(sm.params.systems, sm.output.systems)),
    questions=sm.input.questions,
    references_out=sm.output.references,
)
