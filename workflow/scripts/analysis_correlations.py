"""Snakemake script: analysis step `correlations` of one study (benchval.analysis.chain, module pairwise)."""

from benchval.analysis import pairwise
from benchval.analysis.chain import run_step
from benchval.plumbing.job import start_job

job = start_job(snakemake)
run_step(
    "correlations",
    pairwise.step_tables,
    snakemake.input.table,
    snakemake.input.tasks,
    job.params["analysis"],
    job.params["out_dir"],
)
