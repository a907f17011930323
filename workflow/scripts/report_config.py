"""Snakemake script: the merged config of this run -> YAML file and HTML page for the report."""

import logging

from benchval.joblog import log_to_file
from benchval.report.pages import write_config_page

log_to_file(snakemake.log[0])
log = logging.getLogger("report_config")
write_config_page(snakemake.params.config, snakemake.output.page, snakemake.output.config)
log.info("wrote %s", snakemake.output.page)
