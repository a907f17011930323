"""Snakemake script: the FDR step of one study: adjust every tested table's p-values together."""

import logging

import pandas as pd

from benchval.analysis.fdr import run_fdr_step
from benchval.analysis.reliability import add_ceilings
from benchval.joblog import log_to_file

log_to_file(snakemake.log[0])
logging.captureWarnings(True)
unadjusted = {name: path for name, path in snakemake.input.items() if name != "reliability"}
reliability = pd.read_csv(snakemake.input.reliability)
run_fdr_step(
    unadjusted,
    snakemake.params.analysis,
    snakemake.params.out_dir,
    before_writing=lambda tables: add_ceilings(tables, reliability, snakemake.params.ceiling_bar),
)
