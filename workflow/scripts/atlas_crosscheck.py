"""Snakemake script: open_llm against ObsScaling's own runs (benchval.atlas.steps.atlas_crosscheck)."""

from benchval.atlas.steps.atlas_crosscheck import write_crosscheck
from benchval.plumbing.job import start_job

job = start_job(snakemake)
p, i = job.params, snakemake.input
write_crosscheck(
    p["atlas"], p["mirror"], i.cells, i.names, p["study"], p["atlas"]["min_models"], snakemake.output.table
)
