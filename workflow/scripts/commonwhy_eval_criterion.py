"""Rule commonwhy_eval_criterion: score-table rows and task rows for the validity analysis."""

from benchval.commonwhy.eval import run

sm = snakemake  # noqa: F821
run.start_job(sm)
run.stage_criterion(sm.input.results, sm.params.models, sm.params.settings, sm.output.rows, sm.output.tasks)
