"""Snakemake script: a study's tables -> self-contained HTML pages for the report."""

import logging

from benchval.joblog import log_to_file
from benchval.report.pages import write_study_table_pages

log_to_file(snakemake.log[0])
log = logging.getLogger("report_tables")
write_study_table_pages(snakemake.wildcards.study, dict(snakemake.input.items()), dict(snakemake.output.items()))
log.info("wrote %d table pages for study %s", len(snakemake.output), snakemake.wildcards.study)
