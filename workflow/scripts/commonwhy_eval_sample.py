"""Rule commonwhy_eval_sample: the seeded question sample."""

import logging

from benchval.commonwhy.eval import run
from benchval.threads import job_torch_threads

sm = snakemake  # noqa: F821
# force: an imported library may already have configured the root logger
logging.basicConfig(filename=sm.log[0], level=logging.INFO, format="%(asctime)s %(name)s %(message)s", force=True)
run.set_threads(job_torch_threads(sm))
run.stage_sample(sm.input.published or None, sm.input.constructed or None, sm.params.settings, sm.params.seed,
                 sm.output.questions, sm.output.report)
