"""Snakemake script: analysis step `axes` of one study (benchval.analysis.chain, module axes)."""
import logging

from benchval.analysis import axes
from benchval.analysis.chain import run_step

logging.basicConfig(filename=snakemake.log[0], level=logging.INFO, format="%(asctime)s %(name)s %(message)s")
logging.captureWarnings(True)
run_step("axes", axes.step_tables, snakemake.input.table, snakemake.input.tasks, snakemake.params.analysis,
         snakemake.params.out_dir)
