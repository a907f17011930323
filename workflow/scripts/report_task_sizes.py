"""Snakemake script: the task-size table -> its HTML page for the report."""

from benchval.plumbing.job import start_job
from benchval.report.pages import csv_to_page

job = start_job(snakemake)
csv_to_page(snakemake.input[0], snakemake.output[0], "Task sizes and filters", f"Rendered from {snakemake.input[0]}.")
