"""Snakemake script: the partial-Spearman sensitivity table of one study (benchval.analysis.partial_sensitivity)."""

import logging

import pandas as pd

from benchval.analysis.partial_sensitivity import sensitivity_table
from benchval.analysis.settings import settings_from_config
from benchval.analysis.table import load_study
from benchval.joblog import log_to_file

log_to_file(snakemake.log[0])
settings = settings_from_config(snakemake.params.analysis)
study = load_study(snakemake.input.table, snakemake.input.tasks)
metrics = (
    [m for m in study.metrics if not settings.metrics or m in settings.metrics]
    or list(settings.metrics)
    or ["accuracy"]
)
table = pd.concat([sensitivity_table(study, m, study.wide(m), settings) for m in metrics], ignore_index=True)
table.to_csv(snakemake.output.table, index=False)
differs = table["same_conclusion_as_paper"].eq(False).sum()
logging.info(
    "%s: %d rows, metrics %s; %d convention rows reach a different conclusion than the paper's",
    snakemake.wildcards.study,
    len(table),
    metrics,
    differs,
)
