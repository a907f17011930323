"""Snakemake script: an atlas study's input table (benchval.atlas.steps.study_table)."""

from benchval.atlas.steps.study_table import write_study_table
from benchval.joblog import log_to_file

log_to_file(snakemake.log[0])
write_study_table(
    snakemake.wildcards.study,
    snakemake.params.study,
    snakemake.params.leaderboards,
    snakemake.input.cells,
    snakemake.input.models,
    snakemake.output.table,
    snakemake.output.report,
)
