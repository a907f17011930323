"""Snakemake script: the task-size table -> its HTML page for the report."""

import logging

from benchval.joblog import log_to_file
from benchval.report.pages import csv_to_page

log_to_file(snakemake.log[0])
log = logging.getLogger("report_task_sizes")
csv_to_page(snakemake.input[0], snakemake.output[0], "Task sizes and filters", f"Rendered from {snakemake.input[0]}.")
log.info("wrote %s", snakemake.output[0])
