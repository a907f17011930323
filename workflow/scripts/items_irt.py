"""Snakemake script: 1PL and 2PL of every benchmark of one source (benchval.items.steps.items_irt)."""

from benchval.items.steps.items_irt import run_irt_steps
from benchval.plumbing.job import start_job

job = start_job(snakemake)
run_irt_steps(
    snakemake.input.responses,
    job.params["tasks"],
    job.params["settings"],
    snakemake.input.recovery,
    job.params["out_dir"],
)
