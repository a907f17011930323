"""Rule commonwhy_eval_kbbinder: the KB-Binder-style baseline."""

from benchval.commonwhy.eval import run
from benchval.joblog import log_to_file
from benchval.threads import job_torch_threads

sm = snakemake  # noqa: F821
log_to_file(sm.log[0])
run.set_threads(job_torch_threads(sm))
run.stage_kbbinder(
    sm.input.questions,
    sm.params.settings,
    sm.params.models,
    sm.params.kg,
    sm.input.get("store"),
    sm.output.answers,
    sm.output.timing,
)
