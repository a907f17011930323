"""Snakemake script: analysis step `axes` of one study (benchval.analysis.chain, module axes)."""

import logging

from benchval.analysis import axes
from benchval.analysis.chain import run_step
from benchval.joblog import log_to_file

log_to_file(snakemake.log[0])
logging.captureWarnings(True)
run_step(
    "axes",
    axes.step_tables,
    snakemake.input.table,
    snakemake.input.tasks,
    snakemake.params.analysis,
    snakemake.params.out_dir,
)
