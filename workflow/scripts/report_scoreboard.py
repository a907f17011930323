"""Snakemake script: the scoreboard figure and table of one study for the report."""

import logging
import shutil

from benchval.joblog import log_to_file
from benchval.report.pages import write_study_table_pages

log_to_file(snakemake.log[0])
shutil.copy2(snakemake.input.figure, snakemake.output.figure)
write_study_table_pages(
    snakemake.wildcards.study, {"scoreboard": snakemake.input.table}, {"scoreboard": snakemake.output.table}
)
logging.info("scoreboard of %s -> %s, %s", snakemake.wildcards.study, snakemake.output.figure, snakemake.output.table)
