"""Snakemake script of rule prepare_model: one config entry -> resources/models/{model}/."""

from pathlib import Path

from benchval.joblog import job_log
from benchval.models import prepare_model

model = snakemake.wildcards.model
# transformers', pip's and tqdm's output go to the log too
with job_log(snakemake.log[0], f"preparing model {model!r}"):
    prepare_model(
        model,
        dict(snakemake.params.entry),
        Path(snakemake.output.manifest).parent,
        lock_path=snakemake.params.model_lock,
        lock_stamp=snakemake.input.lock_entry,
    )
