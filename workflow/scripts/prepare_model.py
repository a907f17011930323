"""Snakemake script of rule prepare_model: one config entry -> resources/models/{model}/."""

from pathlib import Path

from benchval.models import prepare_model
from benchval.plumbing.job import start_job

job = start_job(
    snakemake, light=False
)  # the model jobs wait for it; transformers', pip's and tqdm's output go to the log too
prepare_model(
    job.wildcards["model"],
    job.params["entry"],
    Path(snakemake.output.manifest).parent,
    lock_path=job.params["model_lock"],
    lock_stamp=snakemake.input.lock_entry,
)
