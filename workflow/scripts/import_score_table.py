"""Snakemake script: an imported study's score_table.csv and tasks.csv (benchval.analysis.importers)."""
import logging

from benchval.analysis.importers import import_study

logging.basicConfig(filename=snakemake.log[0], level=logging.INFO, format="%(asctime)s %(name)s %(message)s")
import_study(snakemake.wildcards.study, snakemake.params.study, snakemake.params.mirror,
             snakemake.output.table, snakemake.output.tasks)
