"""Item validity: which items of a benchmark carry its correlation with a criterion (docs/items.md).

Across the models of a study (rows of ``matrix``, one score per model and item; ``criterion`` one
score per model):

* ``rho``, ``p``: each item's Spearman correlation with the criterion and its two-sided p-value, as
  :func:`scipy.stats.spearmanr` computes them (Pearson of average ranks; t with n - 2 df), vectorised;
  ``ci_low``, ``ci_high``: Fisher-z interval with the Spearman standard error sqrt(1.06 / (n - 3))
  (Fieller, Hartley & Pearson 1957); an item every model scores alike has no correlation (NaN, noted).
* ``p_fdr``, ``fdr_significant``: Benjamini-Hochberg over the items of the benchmark (one criterion).
* ``item_rest``: Pearson correlation of the item with the mean of the other items (corrected item-total).
* ``contribution``: the benchmark score S is the mean of its items, so Pearson r(S, Y) =
  sum_i cov(x_i, Y) / (m sd(S) sd(Y)); item i's term is its contribution, and the contributions sum to
  r(S, Y) exactly (positive: the item carries the transfer; negative: it works against it). It is the
  Pearson correlation that decomposes; the headline rho of the study is Spearman's, reported beside it.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from scipy import stats

from benchval.analysis.fdr import benjamini_hochberg

#: Fieller, Hartley & Pearson (1957): the variance of Fisher's z of a Spearman rho is about 1.06 / (n - 3)
SPEARMAN_Z_VARIANCE = 1.06


def _standardised_columns(values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    centred = values - values.mean(axis=0, keepdims=True)
    norms = np.sqrt((centred**2).sum(axis=0))
    constant = norms <= 1e-12 * np.maximum(1.0, np.abs(values).max(axis=0))
    with np.errstate(invalid="ignore", divide="ignore"):
        unit = centred / np.where(constant, np.nan, norms)
    return unit, constant


def pearson_columns(matrix: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Pearson r of every column of ``matrix`` with ``y`` (NaN for a constant column)."""
    unit, _ = _standardised_columns(np.asarray(matrix, float))
    y_unit, y_constant = _standardised_columns(np.asarray(y, float)[:, None])
    if y_constant[0]:
        raise ValueError("the criterion is constant across models: no correlation is defined")
    return np.clip(unit.T @ y_unit[:, 0], -1.0, 1.0)


def spearman_columns(matrix: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Spearman rho and two-sided p (scipy's t approximation) of every column with ``y``."""
    matrix = np.asarray(matrix, float)
    n = matrix.shape[0]
    rho = pearson_columns(stats.rankdata(matrix, axis=0), stats.rankdata(y))
    with np.errstate(divide="ignore", invalid="ignore"):
        t = rho * np.sqrt((n - 2) / ((1.0 - rho) * (1.0 + rho)))
    p = 2.0 * stats.t.sf(np.abs(t), n - 2)
    return rho, np.where(np.isnan(rho), np.nan, p)


def fisher_interval(rho: np.ndarray, n: int, level: float) -> tuple[np.ndarray, np.ndarray]:
    """Fisher-z interval of Spearman rho (standard error sqrt(1.06 / (n - 3)))."""
    z = np.arctanh(np.clip(rho, -0.999999, 0.999999))
    half = stats.norm.ppf(0.5 + level / 2.0) * np.sqrt(SPEARMAN_Z_VARIANCE / (n - 3))
    return np.tanh(z - half), np.tanh(z + half)


def item_rest(matrix: np.ndarray) -> np.ndarray:
    """Pearson r of each item with the mean of the other items (NaN for a constant item)."""
    matrix = np.asarray(matrix, float)
    m = matrix.shape[1]
    rest = (matrix.sum(axis=1, keepdims=True) - matrix) / max(m - 1, 1)
    unit, _ = _standardised_columns(matrix)
    rest_unit, _ = _standardised_columns(rest)
    return np.clip((unit * rest_unit).sum(axis=0), -1.0, 1.0)


def contributions(matrix: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Each item's share of Pearson r(mean of items, y); the shares sum to that r exactly."""
    matrix, y = np.asarray(matrix, float), np.asarray(y, float)
    m = matrix.shape[1]
    score = matrix.mean(axis=1)
    sd_score, sd_y = score.std(), y.std()
    if sd_score == 0 or sd_y == 0:
        raise ValueError("the benchmark score or the criterion is constant: r is undefined")
    covariances = ((matrix - matrix.mean(axis=0)) * (y - y.mean())[:, None]).mean(axis=0)
    return covariances / (m * sd_score * sd_y)


def item_validity(matrix: pd.DataFrame, criterion: pd.Series, level: float, alpha: float) -> pd.DataFrame:
    """One row per item: rho, p, CI, p_fdr, fdr_significant, item_rest, contribution, mean, note."""
    criterion = criterion.reindex(matrix.index)
    if criterion.isna().any():
        raise ValueError(f"models without a criterion score: {list(criterion.index[criterion.isna()])[:5]}")
    values, y = matrix.to_numpy(float), criterion.to_numpy(float)
    n = len(y)
    rho, p = spearman_columns(values, y)
    low, high = fisher_interval(rho, n, level)
    table = pd.DataFrame(
        {
            "item_id": matrix.columns,
            "mean": values.mean(axis=0),
            "rho": rho,
            "ci_low": np.where(np.isnan(rho), np.nan, low),
            "ci_high": np.where(np.isnan(rho), np.nan, high),
            "p": p,
            "item_rest": item_rest(values),
            "contribution": contributions(values, y),
            "n_models": n,
        }
    )
    defined = table["p"].notna()
    table["p_fdr"] = np.nan
    table.loc[defined, "p_fdr"] = benjamini_hochberg(table.loc[defined, "p"].to_numpy())
    table["fdr_significant"] = table["p_fdr"] < alpha
    table["note"] = np.where(defined, "", "every model scores this item alike: no correlation")
    return table
