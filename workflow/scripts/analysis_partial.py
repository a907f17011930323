"""Snakemake script: analysis step `partial` of one study (benchval.analysis.chain, module partial)."""

from benchval.analysis import partial
from benchval.analysis.chain import run_step
from benchval.plumbing.job import start_job

job = start_job(snakemake)
run_step(
    "partial",
    partial.step_tables,
    snakemake.input.table,
    snakemake.input.tasks,
    job.params["analysis"],
    job.params["out_dir"],
)
