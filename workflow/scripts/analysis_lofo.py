"""Snakemake script: analysis step `lofo` of one study (benchval.analysis.chain, module lofo)."""

from benchval.analysis import lofo
from benchval.analysis.chain import run_step
from benchval.plumbing.job import start_job

job = start_job(snakemake)
run_step(
    "lofo",
    lofo.step_tables,
    snakemake.input.table,
    snakemake.input.tasks,
    job.params["analysis"],
    job.params["out_dir"],
)
