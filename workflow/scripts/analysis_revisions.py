"""Snakemake script: analysis step `revisions` of one study (benchval.analysis.chain, module revisions)."""

import logging

from benchval.analysis import revisions
from benchval.analysis.chain import run_step
from benchval.joblog import log_to_file

log_to_file(snakemake.log[0])
logging.captureWarnings(True)
run_step(
    "revisions",
    revisions.step_tables,
    snakemake.input.table,
    snakemake.input.tasks,
    snakemake.params.analysis,
    snakemake.params.out_dir,
)
