"""Snakemake script: analysis step `partial` of one study (benchval.analysis.chain, module partial)."""
import logging

from benchval.analysis import partial
from benchval.analysis.chain import run_step

logging.basicConfig(filename=snakemake.log[0], level=logging.INFO, format="%(asctime)s %(name)s %(message)s")
logging.captureWarnings(True)
run_step("partial", partial.step_tables, snakemake.input.table, snakemake.input.tasks, snakemake.params.analysis,
         snakemake.params.out_dir)
