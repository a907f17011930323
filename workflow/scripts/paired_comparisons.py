"""Snakemake script: paired comparisons of a scored study's models (benchval.analysis.steps.paired_comparisons)."""

from benchval.analysis.steps.paired_comparisons import write_paired_comparisons
from benchval.plumbing.job import start_job

job = start_job(snakemake)
write_paired_comparisons(
    job.wildcards["study"],
    job.params["pairs"],
    dict(zip(job.params["tasks"], snakemake.input.task_items)),
    list(snakemake.input.calibrated),
    job.params["bootstrap"],
    snakemake.output.table,
)
