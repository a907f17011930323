"""Snakemake script: one table of one study as a self-contained HTML page for the report."""

import logging

from benchval.joblog import log_to_file
from benchval.report.pages import write_study_table_pages

log_to_file(snakemake.log[0])
name = snakemake.params.name
write_study_table_pages(snakemake.wildcards.study, {name: snakemake.input[0]}, {name: snakemake.output[0]})
logging.info("%s of %s -> %s", name, snakemake.wildcards.study, snakemake.output[0])
