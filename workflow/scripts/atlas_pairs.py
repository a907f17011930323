"""Snakemake script: the atlas proper (benchval.atlas.steps.atlas_pairs)."""

from benchval.atlas.steps.atlas_pairs import write_pairs
from benchval.plumbing.job import start_job

job = start_job(snakemake)
p = job.params
write_pairs(
    p["atlas"],
    p["seed"],
    p["ci_level"],
    snakemake.input.cells,
    snakemake.input.models,
    snakemake.input.methods,
    snakemake.output.pairs,
    snakemake.output.excluded,
)
