"""Snakemake script: all statistics, tables and figures of one study (benchval.analysis.run)."""
import logging

from benchval.analysis.run import run_analysis

logging.basicConfig(filename=snakemake.log[0], level=logging.INFO, format="%(asctime)s %(name)s %(message)s")
logging.captureWarnings(True)
run_analysis(snakemake.input.table, snakemake.input.tasks, snakemake.params.analysis, snakemake.params.out_dir,
             study_name=snakemake.wildcards.study)
