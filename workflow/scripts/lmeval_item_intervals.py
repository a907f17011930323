"""Snakemake script: item-bootstrap intervals of an lm_eval study with samples (benchval.lmeval.importer)."""

from benchval.lmeval.importer import write_item_intervals
from benchval.plumbing.job import start_job

job = start_job(snakemake)
write_item_intervals(
    job.wildcards["study"],
    job.params["study"],
    job.params["mirror"],
    snakemake.output.intervals,
    job.params["seed"],
)
