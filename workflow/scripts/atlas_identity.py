"""Snakemake script: the registry against the labelled identity sample (benchval.atlas.steps.atlas_identity)."""

from benchval.atlas.steps.atlas_identity import write_identity
from benchval.plumbing.job import start_job

job = start_job(snakemake)
p = job.params
write_identity(p["atlas"], p["seed"], p["ci_level"], dict(snakemake.input.items()), dict(snakemake.output.items()))
