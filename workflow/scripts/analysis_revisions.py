"""Snakemake script: analysis step `revisions` of one study (benchval.analysis.chain, module revisions)."""

from benchval.analysis import revisions
from benchval.analysis.chain import run_step
from benchval.plumbing.job import start_job

job = start_job(snakemake)
run_step(
    "revisions",
    revisions.step_tables,
    snakemake.input.table,
    snakemake.input.tasks,
    job.params["analysis"],
    job.params["out_dir"],
)
