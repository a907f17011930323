"""Rule commonwhy_eval_criterion: score-table rows and task rows for the validity analysis."""

from benchval.commonwhy.eval.steps.commonwhy_eval_criterion import stage_criterion
from benchval.plumbing.job import start_job

sm = snakemake  # noqa: F821
job = start_job(sm)
stage_criterion(sm.input.results, job.params["models"], job.params["settings"], sm.output.rows, sm.output.tasks)
