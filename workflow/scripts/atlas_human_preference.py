"""Snakemake script: the human_preference study (benchval.atlas.steps.atlas_human_preference)."""

from benchval.atlas.steps.atlas_human_preference import write_human_preference
from benchval.plumbing.job import start_job

job = start_job(snakemake)
p, i, o = job.params, snakemake.input, snakemake.output
write_human_preference(p["atlas"], p["seed"], p["ci_level"], i.cells, i.models, i.methods, o.table, o.excluded)
