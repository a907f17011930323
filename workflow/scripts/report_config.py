"""Snakemake script: the merged config of this run -> YAML file and HTML page for the report."""

from benchval.jobs.reruns import canonical
from benchval.plumbing.job import start_job
from benchval.report.pages import write_config_page

job = start_job(snakemake)
write_config_page(canonical(snakemake.config), snakemake.output.page, snakemake.output.config)
