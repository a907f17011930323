"""Rule commonwhy_eval_kbbinder: the KB-Binder-style baseline."""

import logging

from benchval.commonwhy.eval import run
from benchval.threads import job_torch_threads

sm = snakemake  # noqa: F821
# force: an imported library may already have configured the root logger
logging.basicConfig(filename=sm.log[0], level=logging.INFO, format="%(asctime)s %(name)s %(message)s", force=True)
run.set_threads(job_torch_threads(sm))
run.stage_kbbinder(sm.input.questions, sm.params.settings, sm.params.models, sm.params.kg, sm.input.get("store"),
                   sm.output.answers, sm.output.timing)
