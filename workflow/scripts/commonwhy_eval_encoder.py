"""Rule commonwhy_eval_encoder: the BERTScore encoder folder from its pinned wheel."""

from benchval.commonwhy.eval.steps.commonwhy_eval_encoder import stage_prepare_encoder
from benchval.plumbing.job import start_job

job = start_job(snakemake)  # noqa: F821
stage_prepare_encoder(job.params["settings"], job.params["wheel_dir"], job.params["dest"])
