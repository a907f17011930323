"""Snakemake script for rule kg_store (thin: calls benchval.commonwhy.entrypoints)."""

from benchval.commonwhy.entrypoints import build_store
from benchval.plumbing.raw_file_checks import verify_job_inputs
from benchval.joblog import log_to_file

log_to_file(snakemake.log[0])  # noqa: F821
verify_job_inputs(snakemake)  # noqa: F821  # the raw files against their declared sha256
build_store(
    snakemake.params.litwd1k_dir,
    snakemake.output.store,
    snakemake.output.stats,  # noqa: F821
    infer_time_precision=snakemake.params.infer_time_precision,
)  # noqa: F821
