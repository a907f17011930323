"""Snakemake script: the scoreboard figure and table of one study for the report."""

from benchval.plumbing.job import start_job
from benchval.report.pages import write_scoreboard_pages

job = start_job(snakemake)
write_scoreboard_pages(
    job.wildcards["study"],
    snakemake.input.figure,
    snakemake.input.table,
    snakemake.output.figure,
    snakemake.output.table,
)
