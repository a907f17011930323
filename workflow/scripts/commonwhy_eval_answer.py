"""Rule commonwhy_eval_answer: one system answers every sampled question (resumable)."""

from benchval.commonwhy.eval import run
from benchval.joblog import log_to_file
from benchval.threads import job_torch_threads

sm = snakemake  # noqa: F821
log_to_file(sm.log[0])
run.set_threads(job_torch_threads(sm))
run.stage_answer(
    sm.input.questions,
    sm.wildcards.system,
    sm.params.settings,
    sm.params.models,
    sm.output.answers,
    sm.params.checkpoint,
    sm.output.timing,
)
