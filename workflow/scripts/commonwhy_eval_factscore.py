"""Rule commonwhy_eval_factscore: FActScore of every system's answers against the KG source."""

import logging

from benchval.commonwhy.eval import run
from benchval.threads import job_torch_threads

sm = snakemake  # noqa: F821
# force: an imported library may already have configured the root logger
logging.basicConfig(filename=sm.log[0], level=logging.INFO, format="%(asctime)s %(name)s %(message)s", force=True)
run.set_threads(job_torch_threads(sm))
run.stage_factscore(dict(zip(sm.params.systems, sm.input.answers)), dict(zip(sm.params.systems, sm.input.judged)),
                    sm.params.settings, sm.params.models, sm.params.kg, sm.input.get("store"),
                    dict(zip(sm.params.systems, sm.output)))
