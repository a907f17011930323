"""Snakemake script: the atlas heatmap (benchval.atlas.steps.heatmap)."""

from benchval.atlas.steps.heatmap import write_heatmap
from benchval.plumbing.job import start_job

job = start_job(snakemake)
p = job.params
write_heatmap(p["atlas"], p["alpha"], p["dpi"], snakemake.input.pairs, list(snakemake.output))
