"""Rule commonwhy_eval_judge_check_report: the judge check table as an HTML page for the report."""

import logging

from benchval.commonwhy.eval import run

sm = snakemake  # noqa: F821
logging.basicConfig(filename=sm.log[0], level=logging.INFO, format="%(asctime)s %(name)s %(message)s", force=True)
run.stage_judge_check_report(list(sm.input.scores), list(sm.input.validity), sm.output.table, sm.output.page,
                             measured=list(sm.input.measured))
