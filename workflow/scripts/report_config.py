"""Snakemake script: the merged config of this run -> YAML file and HTML page for the report."""
import logging

from benchval.report.pages import write_config_page

logging.basicConfig(filename=snakemake.log[0], level=logging.INFO)
log = logging.getLogger("report_config")
write_config_page(snakemake.params.config, snakemake.output.page, snakemake.output.config)
log.info("wrote %s", snakemake.output.page)
