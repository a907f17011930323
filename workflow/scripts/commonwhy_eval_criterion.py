"""Rule commonwhy_eval_criterion: score-table rows and task rows for the validity analysis."""

import logging

from benchval.commonwhy.eval import run
from benchval.threads import job_torch_threads

sm = snakemake  # noqa: F821
# force: an imported library may already have configured the root logger
logging.basicConfig(filename=sm.log[0], level=logging.INFO, format="%(asctime)s %(name)s %(message)s", force=True)
run.set_threads(job_torch_threads(sm))
run.stage_criterion(sm.input.results, sm.params.models, sm.params.settings, sm.output.rows, sm.output.tasks)
