"""Snakemake script: an atlas study's input table (benchval.atlas.steps.atlas_study_table)."""

from benchval.atlas.steps.atlas_study_table import write_study_table
from benchval.plumbing.job import start_job

job = start_job(snakemake)
write_study_table(
    job.wildcards["study"],
    job.params["study"],
    job.params["leaderboards"],
    snakemake.input.cells,
    snakemake.input.models,
    snakemake.output.table,
    snakemake.output.report,
)
