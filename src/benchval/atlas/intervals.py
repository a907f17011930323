"""Bootstrap CIs for an atlas study's correlations (docs/atlas.md): the analysis chain's correlation tables
give rho, p and n; this adds the percentile-bootstrap interval of every (commonsense or control benchmark,
downstream task) rho, on the same pairwise-complete models of the study's score table."""

from __future__ import annotations

import numpy as np
import pandas as pd

from benchval.analysis.bootstrap import rng_for
from benchval.analysis.study_table import load_study
from benchval.atlas.pairs import rho_with_interval


def study_intervals(score_table_csv, tasks_csv, min_models: int, n_boot: int, level: float, seed: int) -> pd.DataFrame:
    study = load_study(score_table_csv, tasks_csv)
    records = []
    for metric in study.metrics:
        wide = study.wide(metric)
        predictors = [
            t for role in ("cs_original", "cs_reworked", "control") for t in study.tasks_with_role(role, wide.columns)
        ]
        for benchmark in predictors:
            for task in study.tasks_with_role("downstream", wide.columns):
                both = wide[[benchmark, task]].dropna().to_numpy(float)
                if len(both) < min_models:
                    continue
                rng = rng_for(seed, "atlas_study", metric, benchmark, task)
                values = rho_with_interval(both[:, 0], both[:, 1], min_models, n_boot, level, rng)
                records.append({"metric": metric, "benchmark": benchmark, "downstream": task, **values})
    return pd.DataFrame.from_records(records).replace({np.inf: np.nan})
