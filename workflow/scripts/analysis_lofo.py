"""Snakemake script: analysis step `lofo` of one study (benchval.analysis.chain, module lofo)."""

import logging

from benchval.analysis import lofo
from benchval.analysis.chain import run_step
from benchval.joblog import log_to_file

log_to_file(snakemake.log[0])
logging.captureWarnings(True)
run_step(
    "lofo",
    lofo.step_tables,
    snakemake.input.table,
    snakemake.input.tasks,
    snakemake.params.analysis,
    snakemake.params.out_dir,
)
