"""Snakemake script: the atlas as a multitrait-multimethod matrix (benchval.atlas.steps.atlas_mtmm)."""

from benchval.atlas.steps.atlas_mtmm import write_mtmm
from benchval.plumbing.job import start_job

job = start_job(snakemake)
i, o = snakemake.input, snakemake.output
write_mtmm(job.params["dpi"], i.pairs, i.methods, o.table, o.blocks, list(o.figures))
