"""Spearman correlations between tasks across models, with p-values (scipy reference).

Point estimates and p-values come from :func:`scipy.stats.spearmanr` on the models that have
both scores (pairwise-complete). The p-value is scipy's: t-distribution with n - 2 df.
"""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
from scipy import stats

from benchval.analysis.undefined import UndefinedStatistic, require


def fisher_z(rho, max_abs_rho: float):
    """Fisher z = artanh(rho), with |rho| clipped to ``max_abs_rho`` so z stays finite."""
    return np.arctanh(np.clip(rho, -max_abs_rho, max_abs_rho))


def spearman(x, y, min_models: int) -> tuple[float, float, int]:
    """Spearman rho and two-sided p (scipy) over models with both values (x, y: aligned vectors).

    Raises :class:`UndefinedStatistic` with fewer than ``min_models`` models or a
    constant score vector (rank correlation undefined).
    """
    x, y = np.asarray(x, dtype=float), np.asarray(y, dtype=float)
    both = np.isfinite(x) & np.isfinite(y)
    x, y = x[both], y[both]
    n = int(both.sum())
    require(n >= min_models, f"only {n} model(s) with both scores (< min_models={min_models})")
    for name, values in (("first", x), ("second", y)):
        require(bool(np.any(values != values[0])), f"all {n} models have the same score on the {name} task")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        result = stats.spearmanr(x, y)
    return float(result.statistic), float(result.pvalue), n


def correlation_long(
    wide: pd.DataFrame,
    rows: list[str],
    columns: list[str],
    min_models: int,
    row_name: str = "task_a",
    column_name: str = "task_b",
    skip_diagonal: bool = False,
) -> pd.DataFrame:
    """Long table of Spearman correlations for every (row task, column task) pair.

    Columns: ``row_name, column_name, rho, p, n_models, note`` (note empty when defined).
    With ``skip_diagonal`` pairs of a task with itself are left out.
    """
    records = []
    for a in rows:
        for b in columns:
            if skip_diagonal and a == b:
                continue
            try:
                rho, p, n = spearman(wide[a], wide[b], min_models)
                note = ""
            except UndefinedStatistic as undefined:
                rho, p, n, note = np.nan, np.nan, int(wide[[a, b]].notna().all(axis=1).sum()), str(undefined)
                note = note.replace("the first task", a).replace("the second task", b)
            records.append({row_name: a, column_name: b, "rho": rho, "p": p, "n_models": n, "note": note})
    return pd.DataFrame.from_records(records, columns=[row_name, column_name, "rho", "p", "n_models", "note"])


def unique_pairs(long: pd.DataFrame, a: str = "task_a", b: str = "task_b", order: list[str] | None = None) -> pd.Series:
    """Boolean mask keeping each unordered pair once (a before b in ``order``)."""
    position = {t: i for i, t in enumerate(order or sorted(set(long[a]) | set(long[b])))}
    return long[a].map(position) < long[b].map(position)
