"""Snakemake script: calibrated option scores of one model on one or more tasks (benchval.evaluation.calibrate)."""

import logging

from benchval.evaluation.calibrate import calibrate_files
from benchval.joblog import log_to_file

log_to_file(snakemake.log[0])
for scores, meta, output in zip(snakemake.input.scores, snakemake.input.metas, snakemake.output.calibrated):
    rows = calibrate_files(scores, meta, snakemake.params.normalisation, output)
    logging.info("%s -> %s: %d option scores (%s)", scores, output, rows, snakemake.params.normalisation)
