"""Snakemake script: calibrated option scores of one model on one or more tasks (benchval.evaluation.calibrate)."""

import logging

from benchval.evaluation.calibrate import calibrate_files
from benchval.plumbing.job import start_job

job = start_job(snakemake)
normalisation = job.params["normalisation"]
for scores, meta, output in zip(snakemake.input.scores, snakemake.input.metas, snakemake.output.calibrated):
    rows = calibrate_files(scores, meta, normalisation, output)
    logging.info("%s -> %s: %d option scores (%s)", scores, output, rows, normalisation)
