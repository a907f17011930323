"""Snakemake script: the merged config of this run -> YAML file and HTML page for the report."""

from benchval.plumbing.job import start_job
from benchval.report.pages import write_config_page
from benchval.report.safe_text import from_script_safe_json

job = start_job(snakemake)
write_config_page(from_script_safe_json(job.params["config"]), snakemake.output.page, snakemake.output.config)
