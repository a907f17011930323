"""Snakemake script: the atlas's factor structure (benchval.atlas.steps.atlas_factor_structure)."""

from benchval.atlas.steps.atlas_factor_structure import write_factor_structure
from benchval.plumbing.job import start_job

job = start_job(snakemake)
p = job.params
outputs = {name: snakemake.output[name] for name in ("scree", "loadings", "g_check")}
write_factor_structure(p["atlas"], p["dpi"], snakemake.input.cells, outputs, list(snakemake.output.figures))
