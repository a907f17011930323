"""Rule commonwhy_eval_score: BERTScore, ROUGE-L, BLEU and METEOR of every system's answers."""

import logging

from benchval.commonwhy.eval import run

sm = snakemake  # noqa: F821
# force: an imported library may already have configured the root logger
logging.basicConfig(filename=sm.log[0], level=logging.INFO, format="%(asctime)s %(name)s %(message)s", force=True)
run.set_threads(sm.threads)
run.stage_score(sm.input.questions, dict(zip(sm.params.systems, sm.input.answers)), sm.params.settings,
                sm.params.encoder_dir, dict(zip(sm.params.systems, sm.output)), baseline=sm.input.get("baseline") or None)
