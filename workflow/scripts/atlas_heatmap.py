"""Snakemake script: the atlas heatmap (benchval.atlas.steps.atlas_heatmap)."""

from benchval.atlas.steps.atlas_heatmap import write_heatmap
from benchval.plumbing.job import start_job
from benchval.plumbing.raw_content_checks import verify_raw_content

job = start_job(snakemake)
verify_raw_content(job.params["raw_content"])  # the raw files against the sha256 they were planned with
p = job.params
names = snakemake.input.get("names")
write_heatmap(p["atlas"], p["alpha"], p["dpi"], snakemake.input.pairs, list(snakemake.output), names)
