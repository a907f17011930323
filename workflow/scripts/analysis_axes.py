"""Snakemake script: analysis step `axes` of one study (benchval.analysis.chain, module axes)."""

from benchval.analysis import axes
from benchval.analysis.chain import run_step
from benchval.plumbing.job import start_job

job = start_job(snakemake)
run_step(
    "axes",
    axes.step_tables,
    snakemake.input.table,
    snakemake.input.tasks,
    job.params["analysis"],
    job.params["out_dir"],
)
