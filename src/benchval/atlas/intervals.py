"""Bootstrap CIs for an atlas study's correlations (docs/atlas.md): the analysis chain's correlation tables
give rho, p and n; this adds the interval of every (commonsense or control benchmark, downstream task) rho, on
the same pairwise-complete models of the study's score table, by the family-clustered bootstrap of the atlas
(benchval.atlas.clustered: whole families resampled, not models)."""

from __future__ import annotations

import numpy as np
import pandas as pd
from scipy import stats

from benchval.analysis.bootstrap import rng_for
from benchval.analysis.study_table import load_study
from benchval.atlas.clustered import cluster_weights, percentile_interval, weighted_partial


def study_intervals(score_table_csv, tasks_csv, min_models: int, n_boot: int, level: float, seed: int) -> pd.DataFrame:
    study = load_study(score_table_csv, tasks_csv)
    records = []
    for metric in study.metrics:
        wide = study.wide(metric)
        family = study.models.loc[wide.index, "family"].astype(str)
        predictors = [
            t for role in ("cs_original", "cs_reworked", "control") for t in study.tasks_with_role(role, wide.columns)
        ]
        for benchmark in predictors:
            for task in study.tasks_with_role("downstream", wide.columns):
                both = wide[[benchmark, task]].dropna()
                if len(both) < min_models:
                    continue
                x, y = both[benchmark].to_numpy(float), both[task].to_numpy(float)
                clusters = family.loc[both.index].to_numpy()
                result = stats.spearmanr(x, y)
                rng = rng_for(seed, "atlas_study", metric, benchmark, task)
                samples = weighted_partial(x, y, None, cluster_weights(clusters, n_boot, rng))
                low, high, valid = percentile_interval(samples, level)
                records.append(
                    {
                        "metric": metric,
                        "benchmark": benchmark,
                        "downstream": task,
                        "n_models": len(both),
                        "n_clusters": len(set(clusters)),
                        "rho": float(result.statistic),
                        "p": float(result.pvalue),
                        "ci_low": low,
                        "ci_high": high,
                        "n_boot_valid": valid,
                    }
                )
    return pd.DataFrame.from_records(records).replace({np.inf: np.nan})
