"""Snakemake script: an lm-eval study's scoreboard and paired comparisons (lmeval.steps.lmeval_scoreboard)."""

from benchval.lmeval.steps.lmeval_scoreboard import write_lmeval_scoreboard
from benchval.plumbing.job import plain, start_job
from benchval.plumbing.raw_content_checks import verify_raw_content

job = start_job(snakemake)
verify_raw_content(job.params["raw_content"])  # the raw files against the sha256 they were planned with
write_lmeval_scoreboard(job.wildcards["study"], job.params, plain(snakemake.output))
