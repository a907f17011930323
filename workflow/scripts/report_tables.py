"""Snakemake script: a study's tables -> self-contained HTML pages for the report."""

from benchval.plumbing.job import start_job
from benchval.report.pages import write_study_table_pages

job = start_job(snakemake)
write_study_table_pages(job.wildcards["study"], dict(snakemake.input.items()), dict(snakemake.output.items()))
