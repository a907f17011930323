"""Rule commonwhy_eval_score: BERTScore, ROUGE-L, BLEU and METEOR of every system's answers."""

from benchval.commonwhy.eval import run
from benchval.joblog import log_to_file
from benchval.threads import job_torch_threads

sm = snakemake  # noqa: F821
log_to_file(sm.log[0])
run.set_threads(job_torch_threads(sm))
run.stage_score(
    sm.input.questions,
    dict(zip(sm.params.systems, sm.input.answers)),
    sm.params.settings,
    sm.params.encoder_dir,
    dict(zip(sm.params.systems, sm.output)),
    baseline=sm.input.get("baseline") or None,
)
