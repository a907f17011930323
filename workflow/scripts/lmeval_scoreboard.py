"""Snakemake script: an lm-eval study's scoreboard and paired comparisons (lmeval.steps.lmeval_scoreboard)."""

from benchval.lmeval.steps.lmeval_scoreboard import write_lmeval_scoreboard
from benchval.plumbing.job import plain, start_job

job = start_job(snakemake)
write_lmeval_scoreboard(job.wildcards["study"], job.params, plain(snakemake.output))
