"""Snakemake script: one table of one study as a self-contained HTML page for the report."""

from benchval.plumbing.job import start_job
from benchval.report.pages import write_study_table_pages

job = start_job(snakemake)
name = job.params["name"]
write_study_table_pages(job.wildcards["study"], {name: snakemake.input[0]}, {name: snakemake.output[0]})
