"""Snakemake script: the task reliability table of one study (benchval.lmeval.steps.task_reliability)."""

from benchval.lmeval.steps.task_reliability import run_reliability_step
from benchval.plumbing.job import plain, start_job
from benchval.plumbing.raw_content_checks import verify_raw_content

job = start_job(snakemake)
verify_raw_content(job.params["lmeval_content"])  # the raw files against the sha256 they were planned with
run_reliability_step(job.wildcards["study"], plain(snakemake.input), job.params, snakemake.output.table)
