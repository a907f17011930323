"""Snakemake script: open_llm against ObsScaling's own runs (benchval.atlas.steps.atlas_crosscheck)."""

from benchval.atlas.steps.atlas_crosscheck import write_crosscheck
from benchval.plumbing.job import start_job
from benchval.plumbing.raw_content_checks import verify_raw_content

job = start_job(snakemake)
verify_raw_content(job.params["raw_content"])  # the raw files against the sha256 they were planned with
p, i = job.params, snakemake.input
write_crosscheck(
    p["atlas"], p["mirror"], i.cells, i.names, p["study"], p["atlas"]["min_models"], snakemake.output.table
)
