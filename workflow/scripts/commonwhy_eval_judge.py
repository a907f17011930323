"""Rule commonwhy_eval_judge: judge every system's answers (only with a judge that passed its check)."""

import logging

from benchval.commonwhy.eval import run
from benchval.threads import job_torch_threads

sm = snakemake  # noqa: F821
# force: an imported library may already have configured the root logger
logging.basicConfig(filename=sm.log[0], level=logging.INFO, format="%(asctime)s %(name)s %(message)s", force=True)
run.set_threads(job_torch_threads(sm))
run.stage_judge(sm.input.questions, dict(zip(sm.params.systems, sm.input.answers)), sm.params.settings,
                sm.params.models, dict(zip(sm.params.systems, sm.output.judged)), sm.input.validity)
