"""Rule commonwhy_eval_criterion: score-table rows and task rows for the validity analysis."""

from benchval.commonwhy.eval import run
from benchval.joblog import log_to_file
from benchval.threads import job_torch_threads

sm = snakemake  # noqa: F821
log_to_file(sm.log[0])
run.set_threads(job_torch_threads(sm))
run.stage_criterion(sm.input.results, sm.params.models, sm.params.settings, sm.output.rows, sm.output.tasks)
