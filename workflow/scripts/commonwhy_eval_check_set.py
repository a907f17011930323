"""Rule commonwhy_eval_check_set: the judge's labelled check set from the data and the KG."""

import logging

from benchval.commonwhy.eval import run

sm = snakemake  # noqa: F821
# force: an imported library may already have configured the root logger
logging.basicConfig(filename=sm.log[0], level=logging.INFO, format="%(asctime)s %(name)s %(message)s", force=True)
run.stage_check_set(sm.input.published, sm.input.constructed, sm.params.kg, sm.input.get("store"), sm.params.settings,
                    sm.params.seed, sm.output.pairs, sm.output.report)
