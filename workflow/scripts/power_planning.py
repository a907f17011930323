"""Snakemake script: the power table of one study (benchval.analysis.steps.power_planning)."""

from benchval.analysis.steps.power_planning import run_power_step
from benchval.plumbing.job import plain, start_job

job = start_job(snakemake)
run_power_step(job.wildcards["study"], plain(snakemake.input), job.params, snakemake.output.table)
