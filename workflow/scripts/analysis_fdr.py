"""Snakemake script: the FDR step of one study: adjust every tested table's p-values together."""

import logging

from benchval.analysis.fdr import run_fdr_step
from benchval.joblog import log_to_file

log_to_file(snakemake.log[0])
logging.captureWarnings(True)
unadjusted = {name: path for name, path in snakemake.input.items()}
run_fdr_step(unadjusted, snakemake.params.analysis, snakemake.params.out_dir)
