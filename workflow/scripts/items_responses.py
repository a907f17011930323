"""Snakemake script: one source's item-level responses (benchval.items.steps.items_responses)."""

from benchval.items.steps.items_responses import run_responses_step
from benchval.plumbing.job import start_job
from benchval.plumbing.raw_content_checks import verify_raw_content

job = start_job(snakemake)
verify_raw_content(job.params["raw_content"])  # the raw files against the sha256 they were planned with
run_responses_step(job.params["source"], job.params["mirror"], snakemake.output.responses)
