"""Snakemake script: IRT fitted to simulated responses, a gate before real data (benchval.items.steps.items_irt)."""

from benchval.items.steps.items_irt import run_recovery_step
from benchval.plumbing.job import start_job

job = start_job(snakemake)
run_recovery_step(job.params["settings"]["irt"]["recovery"], job.params["seed"], snakemake.output[0])
