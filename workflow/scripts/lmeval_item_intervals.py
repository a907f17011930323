"""Snakemake script: item-bootstrap intervals of an lm_eval study with samples (benchval.lmeval.importer)."""

from benchval.lmeval.importer import write_item_intervals
from benchval.plumbing.job import start_job
from benchval.plumbing.raw_content_checks import verify_raw_content

job = start_job(snakemake)
verify_raw_content(job.params["raw_content"])  # the raw files against the sha256 they were planned with
write_item_intervals(
    job.wildcards["study"],
    job.params["study"],
    job.params["mirror"],
    snakemake.output.intervals,
    job.params["seed"],
)
