"""Snakemake script: analysis step `displacement` of one study (benchval.analysis.chain, module displacement)."""

from benchval.analysis import displacement
from benchval.analysis.chain import run_step
from benchval.plumbing.job import start_job

job = start_job(snakemake)
run_step(
    "displacement",
    displacement.step_tables,
    snakemake.input.table,
    snakemake.input.tasks,
    job.params["analysis"],
    job.params["out_dir"],
)
