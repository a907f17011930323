"""Bootstrap CIs for an atlas study's correlations, and its incremental validity (docs/atlas.md): the analysis
chain's correlation tables give rho, p and n; this adds, for every (commonsense or control benchmark,
downstream task) pair on the same pairwise-complete models of the study's score table, the interval of rho and
the partial Spearman beyond log size, beyond the study's own general factor g and beyond both
(benchval.atlas.incremental), each with its n and a family-clustered bootstrap interval (whole families
resampled, not models). g here is the chain's ``general_factor`` covariate
(benchval.analysis.partial_sensitivity.general_factor): the first principal component of the study's other
columns, the pair's two left out."""

from __future__ import annotations

import numpy as np
import pandas as pd

from benchval.analysis.bootstrap import rng_for
from benchval.analysis.partial_sensitivity import general_factor
from benchval.analysis.study_table import load_study
from benchval.atlas.incremental import incremental_validity


def study_intervals(score_table_csv, tasks_csv, min_models: int, n_boot: int, level: float, seed: int) -> pd.DataFrame:
    study = load_study(score_table_csv, tasks_csv)
    settings = {"min_models": min_models, "n_bootstrap": n_boot, "ci_level": level, "min_clusters": 3}
    records = []
    for metric in study.metrics:
        wide = study.wide(metric)
        family = study.models.loc[wide.index, "family"].astype(str)
        log_size = np.log(study.models.loc[wide.index, "size_b"].astype(float))
        predictors = [
            t for role in ("cs_original", "cs_reworked", "control") for t in study.tasks_with_role(role, wide.columns)
        ]
        for benchmark in predictors:
            for task in study.tasks_with_role("downstream", wide.columns):
                rows = wide[[benchmark, task]].notna().all(axis=1).to_numpy()
                if rows.sum() < min_models:
                    continue
                covariates = {
                    "g": general_factor(wide, [benchmark, task]).to_numpy(float)[rows],
                    "size": log_size.to_numpy(float)[rows],
                }
                rng = rng_for(seed, "atlas_study", metric, benchmark, task)
                x, y = wide[benchmark].to_numpy(float)[rows], wide[task].to_numpy(float)[rows]
                values = incremental_validity(x, y, covariates, family.to_numpy()[rows], settings, rng)
                records.append({"metric": metric, "benchmark": benchmark, "downstream": task, **values})
    return pd.DataFrame.from_records(records).replace({np.inf: np.nan})
