"""Snakemake script: the atlas's forest plots, one per criterion (benchval.atlas.steps.atlas_forest)."""

from benchval.atlas.steps.atlas_forest import write_forest
from benchval.plumbing.job import start_job
from benchval.plumbing.raw_content_checks import verify_raw_content

job = start_job(snakemake)
verify_raw_content(job.params["raw_content"])  # the raw files against the sha256 they were planned with
p = job.params
write_forest(
    p["atlas"],
    p["ci_level"],
    p["dpi"],
    snakemake.input.table,
    snakemake.output.table,
    list(snakemake.output.figures),
    snakemake.input.get("names"),
)
