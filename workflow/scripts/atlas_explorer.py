"""Snakemake script: the explorer page (benchval.atlas.steps.atlas_explorer)."""

from benchval.atlas.steps.atlas_explorer import write_explorer_page
from benchval.plumbing.job import start_job

job = start_job(snakemake)
write_explorer_page(job.params["atlas"], job.params["ci_level"], dict(snakemake.input.items()), snakemake.output.page)
