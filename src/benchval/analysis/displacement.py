"""Rank displacement between benchmark and downstream rankings (paper Appendix C, Table 4).

Per (benchmark, downstream task) pair, on the models with both scores:

* Spearman rho (scipy);
* mean absolute rank displacement: models ranked 1..n on each (rank 1 = best score, average
  ranks for ties), mean over models of |rank_benchmark - rank_task|;
* top-k Jaccard: |top_k(benchmark) & top_k(task)| / |top_k(benchmark) | top_k(task)|, where
  top_k is the k best scores, ties broken by model name (documented, deterministic).

Table 4 averages each measure (plain means) over the downstream tasks with a defined value.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from scipy import stats

from benchval.analysis.correlation import spearman
from benchval.analysis.settings import AnalysisSettings
from benchval.analysis.table import StudyTable
from benchval.analysis.undefined import UndefinedStatistic, require


def mean_abs_rank_displacement(x: pd.Series, y: pd.Series) -> float:
    """Mean |rank_x - rank_y| with rank 1 the highest score (average ranks on ties)."""
    return float(np.mean(np.abs(stats.rankdata(-np.asarray(x, float)) - stats.rankdata(-np.asarray(y, float)))))


def top_k(scores: pd.Series, k: int) -> set:
    """The ``k`` models with the highest score; ties broken by model name (ascending)."""
    ranked = sorted(zip(scores.to_numpy(float), scores.index), key=lambda item: (-item[0], item[1]))
    return {model for _, model in ranked[:k]}


def top_k_jaccard(x: pd.Series, y: pd.Series, k: int) -> float:
    a, b = top_k(x, k), top_k(y, k)
    return len(a & b) / len(a | b)


def pair_table(study: StudyTable, metric: str, wide: pd.DataFrame, settings: AnalysisSettings) -> pd.DataFrame:
    """One row per (commonsense benchmark, downstream task)."""
    benchmarks = study.tasks_with_role("cs_original", wide.columns) + study.tasks_with_role("cs_reworked", wide.columns)
    records = []
    for benchmark in benchmarks:
        for task in study.tasks_with_role("downstream", wide.columns):
            both = wide[[benchmark, task]].dropna()
            record = {"metric": metric, "benchmark": benchmark, "downstream": task, "n_models": len(both)}
            try:
                rho, _, _ = spearman(both[benchmark], both[task], settings.min_models)
                require(len(both) > settings.top_k, f"top-{settings.top_k} overlap needs more than "
                                                    f"{settings.top_k} models (has {len(both)})")
                record.update(rho=rho, mean_abs_rank_displacement=mean_abs_rank_displacement(both[benchmark], both[task]),
                              top_k_jaccard=top_k_jaccard(both[benchmark], both[task], settings.top_k), note="")
            except UndefinedStatistic as undefined:
                record.update(rho=np.nan, mean_abs_rank_displacement=np.nan, top_k_jaccard=np.nan, note=str(undefined))
            records.append(record)
    columns = ["metric", "benchmark", "downstream", "rho", "mean_abs_rank_displacement", "top_k_jaccard",
               "n_models", "note"]
    return pd.DataFrame.from_records(records, columns=columns)


def table4(pairs: pd.DataFrame, study: StudyTable, metrics: list[str], top_k_value: int) -> pd.DataFrame:
    """Per benchmark and metric: measures averaged over downstream tasks, sorted by mean rho."""
    records = []
    for metric in metrics:
        subset = pairs[pairs["metric"] == metric]
        for benchmark, rows in subset.groupby("benchmark", sort=False):
            defined = rows.dropna(subset=["rho"])
            record = {"metric": metric, "benchmark": benchmark, "label": study.label(benchmark),
                      "role": study.tasks.at[benchmark, "role"], "n_downstream_tasks": len(defined),
                      "mean_rho": defined["rho"].mean(),
                      "mean_abs_rank_displacement": defined["mean_abs_rank_displacement"].mean(),
                      f"mean_top{top_k_value}_jaccard": defined["top_k_jaccard"].mean(),
                      "note": "" if len(defined) else "no downstream task with a defined value"}
            records.append(record)
        if subset.empty:
            records.append({"metric": metric, "benchmark": "", "label": "", "role": "", "n_downstream_tasks": 0,
                            "note": "no commonsense benchmark or no downstream task with this metric"})
    columns = ["metric", "benchmark", "label", "role", "n_downstream_tasks", "mean_rho", "mean_abs_rank_displacement",
               f"mean_top{top_k_value}_jaccard", "note"]
    table = pd.DataFrame.from_records(records, columns=columns)
    order = {m: i for i, m in enumerate(metrics)}
    return (table.assign(_m=table["metric"].map(order), _r=-table["mean_rho"].fillna(-np.inf))
            .sort_values(["_m", "_r"], kind="stable").drop(columns=["_m", "_r"]).reset_index(drop=True))


def step_tables(study: StudyTable, metrics: list[str], settings) -> dict[str, pd.DataFrame]:
    """Step ``displacement`` of the chain (benchval.analysis.chain): pairs and Table 4."""
    from benchval.analysis.chain import per_metric

    tables = per_metric(study, metrics, lambda metric, wide: {
        "rank_displacement_pairs": pair_table(study, metric, wide, settings)})
    tables["table4_rank_displacement"] = table4(tables["rank_displacement_pairs"], study, metrics, settings.top_k)
    return tables
