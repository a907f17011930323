"""Snakemake script: the atlas heatmap (benchval.atlas.steps.atlas_heatmap)."""

from benchval.atlas.steps.atlas_heatmap import write_heatmap
from benchval.plumbing.job import start_job

job = start_job(snakemake)
p = job.params
names = snakemake.input.get("names")
write_heatmap(p["atlas"], p["alpha"], p["dpi"], snakemake.input.pairs, list(snakemake.output), names)
