"""Snakemake script: agreement beside validity (benchval.atlas.steps.atlas_agreement)."""

from benchval.atlas.steps.atlas_agreement import write_agreement
from benchval.plumbing.job import start_job

job = start_job(snakemake)
p, i = job.params, snakemake.input
write_agreement(p["atlas"], p["seed"], p["ci_level"], i.cells, i.predictors, snakemake.output.table)
