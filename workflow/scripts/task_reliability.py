"""Snakemake script: the task reliability table of one study (benchval.lmeval.steps.task_reliability)."""

from benchval.lmeval.steps.task_reliability import run_reliability_step
from benchval.plumbing.job import plain, start_job

job = start_job(snakemake)
run_reliability_step(job.wildcards["study"], plain(snakemake.input), job.params, snakemake.output.table)
