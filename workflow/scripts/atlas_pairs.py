"""Snakemake script: the atlas proper (benchval.atlas.steps.pairs)."""

from benchval.atlas.steps.pairs import write_pairs
from benchval.plumbing.job import start_job

job = start_job(snakemake)
p = job.params
write_pairs(
    p["atlas"],
    p["seed"],
    p["ci_level"],
    snakemake.input.cells,
    snakemake.input.models,
    snakemake.output.pairs,
    snakemake.output.excluded,
)
