"""Snakemake script for rule commonwhy_ground (thin: calls benchval.commonwhy.entrypoints)."""

from benchval.commonwhy.entrypoints import ground
from benchval.plumbing.raw_file_checks import verify_job_inputs
from benchval.joblog import log_to_file

log_to_file(snakemake.log[0])  # noqa: F821
verify_job_inputs(snakemake)  # noqa: F821  # the raw files against their declared sha256
inputs = snakemake.input  # noqa: F821
ground(
    snakemake.params.raw_dir,
    snakemake.params.commonwhy,  # noqa: F821
    inputs.store if hasattr(inputs, "store") else None,
    snakemake.output.constructed,
    snakemake.output.report,
    snakemake.output.summary,  # noqa: F821
    annotations=list(inputs.annotations),
)
