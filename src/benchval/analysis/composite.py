"""Composites: the mean of z-standardised constituent task scores.

Standardisation statistics (mean, population SD with ddof=0) come from the *reference* models
only (all models for the correlation analyses; the training families in LOFO). A model's
composite is the mean of its available standardised constituents (NaN if it has none).

One SD convention for the whole analysis: the population SD (ddof = 0), as
``scipy.stats.zscore`` and sklearn's ``StandardScaler`` (the LOFO feature scaling) use it. The
choice cannot change a rank-based or scale-free result when every constituent is observed for
the same models (all z-scores scale by one common factor); with missing constituents the
per-constituent factors sqrt(n_j / (n_j - 1)) differ slightly.
"""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd


def standardised_mean(values: np.ndarray, reference: np.ndarray) -> np.ndarray:
    """Composite of ``values`` (m x c) standardised with ``reference`` (r x c) statistics.

    A constituent that is constant or has < 2 values in the reference contributes nothing.
    """
    values = np.asarray(values, dtype=float)
    reference = np.asarray(reference, dtype=float)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", category=RuntimeWarning)
        mean = np.nanmean(reference, axis=0)
        sd = np.nanstd(reference, axis=0, ddof=0)
        usable = np.isfinite(sd) & (sd > 0)
        if not usable.any():
            return np.full(values.shape[0], np.nan)
        z = (values[:, usable] - mean[usable]) / sd[usable]
        return np.nanmean(z, axis=1)


def composite_series(wide: pd.DataFrame, tasks: list[str]) -> pd.Series:
    """Composite of ``tasks`` over all rows of ``wide`` (standardised on those rows)."""
    values = wide[tasks].to_numpy(dtype=float)
    return pd.Series(standardised_mean(values, values), index=wide.index)
