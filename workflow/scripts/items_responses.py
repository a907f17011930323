"""Snakemake script: one source's item-level responses (benchval.items.steps.items_responses)."""

from benchval.items.steps.items_responses import run_responses_step
from benchval.plumbing.job import start_job

job = start_job(snakemake)
run_responses_step(job.params["source"], job.params["mirror"], snakemake.output.responses)
