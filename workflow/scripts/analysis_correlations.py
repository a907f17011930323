"""Snakemake script: analysis step `correlations` of one study (benchval.analysis.chain, module pairwise)."""

import logging

from benchval.analysis import pairwise
from benchval.analysis.chain import run_step
from benchval.joblog import log_to_file

log_to_file(snakemake.log[0])
logging.captureWarnings(True)
run_step(
    "correlations",
    pairwise.step_tables,
    snakemake.input.table,
    snakemake.input.tasks,
    snakemake.params.analysis,
    snakemake.params.out_dir,
)
