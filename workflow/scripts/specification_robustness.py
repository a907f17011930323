"""Snakemake script: the specification-robustness table and figure of one study
(benchval.analysis.steps.specification_robustness)."""

from pathlib import Path

from benchval.analysis.steps.specification_robustness import run_specification_step
from benchval.plumbing.job import plain, start_job

job = start_job(snakemake)
run_specification_step(
    job.wildcards["study"],
    plain(snakemake.input),
    job.params,
    snakemake.output.table,
    Path(snakemake.output.figures[0]).parent,
)
