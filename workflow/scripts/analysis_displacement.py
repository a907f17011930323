"""Snakemake script: analysis step `displacement` of one study (benchval.analysis.chain, module displacement)."""

import logging

from benchval.analysis import displacement
from benchval.analysis.chain import run_step
from benchval.joblog import log_to_file

log_to_file(snakemake.log[0])
logging.captureWarnings(True)
run_step(
    "displacement",
    displacement.step_tables,
    snakemake.input.table,
    snakemake.input.tasks,
    snakemake.params.analysis,
    snakemake.params.out_dir,
)
