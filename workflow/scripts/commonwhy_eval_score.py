"""Rule commonwhy_eval_score: BERTScore, ROUGE-L, BLEU and METEOR of every system's answers."""

from benchval.commonwhy.eval import run

sm = snakemake  # noqa: F821
run.start_job(sm)
run.stage_score(
    sm.input.questions,
    dict(zip(sm.params.systems, sm.input.answers)),
    sm.params.settings,
    sm.params.encoder_dir,
    dict(zip(sm.params.systems, sm.output)),
    baseline=sm.input.get("baseline") or None,
)
