"""Snakemake script: the power table of one study (benchval.analysis.power)."""

import logging

import pandas as pd

from benchval.analysis.power import Simulation, study_power_table
from benchval.analysis.study_table import load_study
from benchval.joblog import log_to_file

log_to_file(snakemake.log[0])
params = snakemake.params
power = dict(params.power)
alpha_settings = {key: power.pop(key) for key in ("target", "true_share")}
sim = Simulation(seed=params.seed, ridge_alpha=params.ridge_alpha, target=alpha_settings["target"], **power)
study = load_study(snakemake.input.table, snakemake.input.tasks)
table = study_power_table(
    study, pd.read_csv(snakemake.input.reliability), sim, params.alpha, alpha_settings["true_share"], params.min_models
)
table.to_csv(snakemake.output.table, index=False)
logging.info("%s: %d power rows; simulation %s", snakemake.wildcards.study, len(table), sim)
