"""The power_planning rule's job (workflow/rules/robustness.smk): the power table of one study
(benchval.analysis.power), from its score table and its tasks' item counts (the reliability table)."""

from __future__ import annotations

import logging

import pandas as pd

from benchval.analysis.power import Simulation, study_power_table
from benchval.analysis.study_table import load_study

log = logging.getLogger(__name__)


def run_power_step(study_name: str, inputs: dict, params: dict, table_csv: str) -> pd.DataFrame:
    """``inputs``: table, tasks, reliability; ``params``: power (robustness.power), seed, alpha,
    min_models, ridge_alpha."""
    power = dict(params["power"])
    target, true_share = power.pop("target"), power.pop("true_share")
    sim = Simulation(seed=params["seed"], ridge_alpha=params["ridge_alpha"], target=target, **power)
    study = load_study(inputs["table"], inputs["tasks"])
    reliability = pd.read_csv(inputs["reliability"])
    table = study_power_table(study, reliability, sim, params["alpha"], true_share, params["min_models"])
    table.to_csv(table_csv, index=False)
    log.info("%s: %d power rows; simulation %s", study_name, len(table), sim)
    return table
