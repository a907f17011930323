"""Rule commonwhy_eval_score: BERTScore, ROUGE-L, BLEU and METEOR of every system's answers."""

from benchval.commonwhy.eval.steps.commonwhy_eval_score import stage_score
from benchval.plumbing.job import start_job

sm = snakemake  # noqa: F821
job = start_job(sm, torch=True)
systems = job.params["systems"]
stage_score(
    sm.input.questions,
    dict(zip(systems, sm.input.answers)),
    job.params["settings"],
    job.params["encoder_dir"],
    dict(zip(systems, sm.output)),
    baseline=sm.input.get("baseline") or None,
)
