"""Step ``correlations`` of the chain: coverage per task and the pairwise Spearman tables.

cs x cs (unique pairs; Figure 1) and benchmark x downstream (Figure 2), one row per pair and metric.
"""

from __future__ import annotations

import pandas as pd

from benchval.analysis.chain import per_metric
from benchval.analysis.correlation import correlation_long, unique_pairs
from benchval.analysis.intervals import spearman_interval_columns
from benchval.analysis.study_table import CS_ROLES, StudyTable


def study_summary(study: StudyTable, metric: str, wide: pd.DataFrame) -> list[dict]:
    """Coverage per metric and role: which tasks are in, how many models have scores."""
    records = []
    for task in study.tasks.index:
        has = task in wide.columns
        records.append(
            {
                "metric": metric,
                "task": task,
                "label": study.label(task),
                "role": study.tasks.at[task, "role"],
                "axes": ";".join(study.tasks.at[task, "axes"]),
                "n_models_scored": int(wide[task].notna().sum()) if has else 0,
                "n_models_total": len(wide),
                "n_families_scored": int(study.models.loc[wide[task].dropna().index, "family"].nunique()) if has else 0,
                "note": ""
                if has
                else "; ".join(
                    filter(
                        None,
                        [
                            f"task has no '{metric}' scores: left out of this metric's analysis",
                            study.tasks.at[task, "unavailable"],
                        ],
                    )
                ),
            }
        )
    return records


def correlations(study: StudyTable, metric: str, wide: pd.DataFrame, settings, intervals: bool = True):
    """(cs x cs unique pairs, benchmark x downstream) Spearman tables for one metric, each pair with
    its bootstrap interval over models (benchval.analysis.intervals) unless ``intervals`` is False (the
    specification grid reads only the estimates and their FDR decisions)."""
    cs = [t for t in study.tasks.index if t in wide.columns and study.tasks.at[t, "role"] in CS_ROLES]
    full = correlation_long(wide, cs, cs, settings.min_models, skip_diagonal=True)
    cs_cs = full[unique_pairs(full, order=cs)].reset_index(drop=True) if len(full) else full
    if intervals:
        cs_cs = spearman_interval_columns(cs_cs, wide, "task_a", "task_b", settings, ("correlations_cs_cs", metric))
    cs_cs.insert(0, "metric", metric)
    predictors = cs + study.tasks_with_role("control", wide.columns)
    downstream = study.tasks_with_role("downstream", wide.columns)
    cs_ds = correlation_long(wide, predictors, downstream, settings.min_models, "benchmark", "downstream")
    if intervals:
        cs_ds = spearman_interval_columns(
            cs_ds, wide, "benchmark", "downstream", settings, ("correlations_cs_downstream", metric)
        )
    cs_ds.insert(0, "metric", metric)
    cs_ds.insert(2, "role", cs_ds["benchmark"].map(study.tasks["role"]))
    return cs_cs, cs_ds


def step_tables(study: StudyTable, metrics: list[str], settings, intervals: bool = True) -> dict[str, pd.DataFrame]:
    """study_summary, correlations_cs_cs, correlations_cs_downstream for every metric."""

    def compute(metric, wide):
        cs_cs, cs_ds = correlations(study, metric, wide, settings, intervals)
        return {
            "study_summary": pd.DataFrame.from_records(study_summary(study, metric, wide)),
            "correlations_cs_cs": cs_cs,
            "correlations_cs_downstream": cs_ds,
        }

    return per_metric(study, metrics, compute)
