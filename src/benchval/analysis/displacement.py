"""Rank displacement between benchmark and downstream rankings (paper Appendix C, Table 4).

Per (benchmark, downstream task) pair, on the models with both scores:

* Spearman rho (scipy);
* mean absolute rank displacement: models ranked 1..n on each (rank 1 = best score, average
  ranks for ties), mean over models of |rank_benchmark - rank_task|;
* top-k Jaccard: |top_k(benchmark) & top_k(task)| / |top_k(benchmark) | top_k(task)|, where
  top_k is the k best scores. Ties at the cut are resolved by expectation: when the k-th best
  score is shared, every order of the tied models is equally likely, so the top-k takes a
  uniformly random subset of them; the value reported is the exact expected Jaccard over both
  rankings' tie orders (:func:`expected_top_k_jaccard`). Without ties at the cut it is the plain
  Jaccard; it never depends on model names.

Table 4 averages each measure (plain means) over the downstream tasks with a defined value.
"""

from __future__ import annotations

from math import comb

import numpy as np
import pandas as pd
from scipy import stats

from benchval.analysis.correlation import spearman
from benchval.analysis.settings import AnalysisSettings
from benchval.analysis.study_table import StudyTable
from benchval.analysis.undefined import UndefinedStatistic, require


def mean_abs_rank_displacement(x: pd.Series, y: pd.Series) -> float:
    """Mean |rank_x - rank_y| with rank 1 the highest score (average ranks on ties)."""
    return float(np.mean(np.abs(stats.rankdata(-np.asarray(x, float)) - stats.rankdata(-np.asarray(y, float)))))


def top_k_cut(scores: pd.Series, k: int) -> tuple[set, set, int]:
    """(models surely in the top k, models tied at the cut, how many of those the top k takes)."""
    values = scores.to_numpy(float)
    kth = np.sort(values)[::-1][k - 1]
    sure = set(scores.index[values > kth])
    tied = set(scores.index[values == kth])
    return sure, tied, k - len(sure)


def expected_top_k_jaccard(x: pd.Series, y: pd.Series, k: int) -> float:
    """Expected top-k Jaccard over uniformly random orders of the models tied at each cut.

    Top-k(x) = A0 plus a random ``ra``-subset SA of the tied set GA; likewise B0, SB, GB for y, the
    two independent. Both sets have k models, so J = I / (2k - I) with I = |A & B|. SA is summarised
    by how many models it takes from GA & B0 (a1), GA & GB (a2) and the rest of GA
    (multivariate hypergeometric); given SA, |A & SB| is hypergeometric (|GB| models, |A & GB|
    of them in A, ``rb`` drawn). Summing over both gives the exact expectation (tested against
    enumerating every tie order).
    """
    a0, ga, ra = top_k_cut(x, k)
    b0, gb, rb = top_k_cut(y, k)
    cells = [len(ga & b0), len(ga & gb), len(ga - b0 - gb)]
    expected = 0.0
    for a1 in range(min(cells[0], ra) + 1):
        for a2 in range(min(cells[1], ra - a1) + 1):
            a3 = ra - a1 - a2
            if a3 > cells[2]:
                continue
            weight = comb(cells[0], a1) * comb(cells[1], a2) * comb(cells[2], a3) / comb(len(ga), ra)
            base = len(a0 & b0) + a1
            in_a = len(a0 & gb) + a2  # models of GB already in A
            drawn = np.arange(rb + 1)
            probability = stats.hypergeom.pmf(drawn, len(gb), in_a, rb)
            overlap = base + drawn
            expected += weight * float(np.sum(probability * overlap / (2 * k - overlap)))
    return expected


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
                require(
                    len(both) > settings.top_k,
                    f"top-{settings.top_k} overlap needs more than {settings.top_k} models (has {len(both)})",
                )
                record.update(
                    rho=rho,
                    mean_abs_rank_displacement=mean_abs_rank_displacement(both[benchmark], both[task]),
                    top_k_jaccard=expected_top_k_jaccard(both[benchmark], both[task], settings.top_k),
                    note="",
                )
            except UndefinedStatistic as undefined:
                record.update(rho=np.nan, mean_abs_rank_displacement=np.nan, top_k_jaccard=np.nan, note=str(undefined))
            records.append(record)
    columns = [
        "metric",
        "benchmark",
        "downstream",
        "rho",
        "mean_abs_rank_displacement",
        "top_k_jaccard",
        "n_models",
        "note",
    ]
    return pd.DataFrame.from_records(records, columns=columns)


def table4(pairs: pd.DataFrame, study: StudyTable, metrics: list[str], top_k_value: int) -> pd.DataFrame:
    """Per benchmark and metric: measures averaged over downstream tasks, sorted by mean rho."""
    records = []
    for metric in metrics:
        subset = pairs[pairs["metric"] == metric]
        for benchmark, rows in subset.groupby("benchmark", sort=False):
            defined = rows.dropna(subset=["rho"])
            record = {
                "metric": metric,
                "benchmark": benchmark,
                "label": study.label(benchmark),
                "role": study.tasks.at[benchmark, "role"],
                "n_downstream_tasks": len(defined),
                "mean_rho": defined["rho"].mean(),
                "mean_abs_rank_displacement": defined["mean_abs_rank_displacement"].mean(),
                f"mean_top{top_k_value}_jaccard": defined["top_k_jaccard"].mean(),
                "note": "" if len(defined) else "no downstream task with a defined value",
            }
            records.append(record)
        if subset.empty:
            records.append(
                {
                    "metric": metric,
                    "benchmark": "",
                    "label": "",
                    "role": "",
                    "n_downstream_tasks": 0,
                    "note": "no commonsense benchmark or no downstream task with this metric",
                }
            )
    columns = [
        "metric",
        "benchmark",
        "label",
        "role",
        "n_downstream_tasks",
        "mean_rho",
        "mean_abs_rank_displacement",
        f"mean_top{top_k_value}_jaccard",
        "note",
    ]
    table = pd.DataFrame.from_records(records, columns=columns)
    order = {m: i for i, m in enumerate(metrics)}
    return (
        table.assign(_m=table["metric"].map(order), _r=-table["mean_rho"].fillna(-np.inf))
        .sort_values(["_m", "_r"], kind="stable")
        .drop(columns=["_m", "_r"])
        .reset_index(drop=True)
    )


def step_tables(study: StudyTable, metrics: list[str], settings) -> dict[str, pd.DataFrame]:
    """Step ``displacement`` of the chain (benchval.analysis.chain): pairs and Table 4."""
    from benchval.analysis.chain import per_metric

    tables = per_metric(
        study, metrics, lambda metric, wide: {"rank_displacement_pairs": pair_table(study, metric, wide, settings)}
    )
    tables["table4_rank_displacement"] = table4(tables["rank_displacement_pairs"], study, metrics, settings.top_k)
    return tables
