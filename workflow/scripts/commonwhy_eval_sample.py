"""Rule commonwhy_eval_sample: the seeded question sample."""

from benchval.commonwhy.eval import run
from benchval.joblog import log_to_file
from benchval.threads import job_torch_threads

sm = snakemake  # noqa: F821
log_to_file(sm.log[0])
run.set_threads(job_torch_threads(sm))
run.stage_sample(
    sm.input.published or None,
    sm.input.constructed or None,
    sm.params.settings,
    sm.params.seed,
    sm.output.questions,
    sm.output.report,
)
