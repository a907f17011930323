"""Rule commonwhy_eval_judge_check: one judge on the check set (verdicts, measures per type, validity)."""

import logging

from benchval.commonwhy.eval import run
from benchval.threads import job_torch_threads

sm = snakemake  # noqa: F821
# force: an imported library may already have configured the root logger
logging.basicConfig(filename=sm.log[0], level=logging.INFO, format="%(asctime)s %(name)s %(message)s", force=True)
run.set_threads(job_torch_threads(sm))
run.stage_judge_check(sm.input.pairs, sm.wildcards.judge, sm.params.settings, sm.params.models, sm.output.verdicts,
                      sm.output.scores, sm.output.validity, sm.params.seed)
