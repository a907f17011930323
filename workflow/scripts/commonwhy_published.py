"""Snakemake script for rule commonwhy_published (thin: calls benchval.commonwhy.entrypoints)."""

from benchval.commonwhy.entrypoints import published
from benchval.plumbing.raw_file_checks import verify_job_inputs
from benchval.joblog import log_to_file

log_to_file(snakemake.log[0])  # noqa: F821
verify_job_inputs(snakemake)  # noqa: F821  # the raw files against their declared sha256
published(snakemake.params.raw_dir, snakemake.output.table, snakemake.output.report)  # noqa: F821
