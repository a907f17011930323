"""Snakemake script: bootstrap CIs of an atlas study's correlations (benchval.atlas.steps.atlas_study_intervals)."""

from benchval.atlas.steps.atlas_study_intervals import write_study_intervals
from benchval.plumbing.job import start_job

job = start_job(snakemake)
p, i = job.params, snakemake.input
write_study_intervals(p["atlas"], p["seed"], p["ci_level"], i.table, i.tasks, snakemake.output.table)
