"""Rule commonwhy_eval_bertscore_baseline: BERTScore's rescaling baseline for the configured encoder."""

import logging

from benchval.commonwhy.eval import run

sm = snakemake  # noqa: F821
# force: an imported library may already have configured the root logger
logging.basicConfig(filename=sm.log[0], level=logging.INFO, format="%(asctime)s %(name)s %(message)s", force=True)
run.set_threads(sm.threads)
run.stage_bertscore_baseline(
    sm.params.settings, sm.params.encoder_dir, sm.input.corpus, sm.params.seed, sm.output.baseline, sm.output.report
)
