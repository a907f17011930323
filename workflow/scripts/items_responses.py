"""Snakemake script: one source's item-level responses (benchval.jobs.steps.items_responses)."""

from benchval.jobs.steps.items_responses import run_responses_step
from benchval.plumbing.job import start_job

job = start_job(snakemake)
run_responses_step(job.params["source"], job.params["mirror"], snakemake.output.responses)
