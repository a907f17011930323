"""Rule commonwhy_eval_kgr: the KGR-style baseline (revises the backbone's own answers)."""

import logging

from benchval.commonwhy.eval import run
from benchval.threads import job_torch_threads

sm = snakemake  # noqa: F821
# force: an imported library may already have configured the root logger
logging.basicConfig(filename=sm.log[0], level=logging.INFO, format="%(asctime)s %(name)s %(message)s", force=True)
run.set_threads(job_torch_threads(sm))
run.stage_kgr(sm.input.questions, sm.input.drafts, sm.params.settings, sm.params.models, sm.params.kg,
              sm.input.get("store"), sm.output.answers, sm.output.timing)
