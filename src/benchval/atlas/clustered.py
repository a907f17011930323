"""Spearman and partial Spearman with a family-clustered bootstrap, vectorised (docs/atlas.md, "Incremental
validity").

A clustered bootstrap draws whole clusters (model families) with replacement, as many as the sample has,
and keeps every model of a drawn cluster as often as its cluster was drawn. A draw is therefore a vector of
integer weights over the sample's models, and every statistic here is computed on weights: the rank of a
model in a draw is the weight of the values below it plus half of the weight tied with it, plus 1/2 (the
average rank scipy's ``rankdata`` gives the repeated rows), the covariates are removed by weighted least
squares and the correlation is the weighted Pearson correlation of the residuals. With integer weights this
is exactly the statistic of the resampled rows (tested against ``benchval.analysis.partial.partial_spearman``
on the expanded rows); with all weights 1 it is the point estimate, which equals pingouin's
``partial_corr(method="spearman")`` (tested).

Covariates are ranked too (as pingouin's Spearman partial correlation ranks them): a partial Spearman
correlation is the partial Pearson correlation of ranks.
"""

from __future__ import annotations

import numpy as np


def cluster_weights(clusters: np.ndarray, n_boot: int, rng: np.random.Generator) -> np.ndarray:
    """(n_boot, n) integer weights: each draw takes as many clusters as there are, with replacement."""
    labels, inverse = np.unique(np.asarray(clusters), return_inverse=True)
    k = len(labels)
    picks = rng.integers(0, k, size=(n_boot, k)) + (np.arange(n_boot) * k)[:, None]
    drawn = np.bincount(picks.ravel(), minlength=n_boot * k).reshape(n_boot, k)
    return drawn[:, inverse].astype(float)


def weighted_ranks(values: np.ndarray, weights: np.ndarray) -> np.ndarray:
    """Average ranks of ``values`` in each weighted draw (rows of ``weights``), ties averaged."""
    values = np.asarray(values, float)
    weights = np.atleast_2d(weights)
    order = np.argsort(values, kind="stable")
    ordered = values[order]
    starts = np.flatnonzero(np.r_[True, ordered[1:] != ordered[:-1]])
    block_of = np.empty(len(values), dtype=np.int64)
    block_of[order] = np.cumsum(np.r_[True, ordered[1:] != ordered[:-1]]) - 1
    sums = np.add.reduceat(weights[:, order], starts, axis=1)
    below = np.cumsum(sums, axis=1) - sums
    return (below + (sums + 1.0) / 2.0)[:, block_of]


def weighted_partial(x: np.ndarray, y: np.ndarray, covariates: np.ndarray | None, weights: np.ndarray) -> np.ndarray:
    """Partial Spearman of x and y given ``covariates`` (n, k; ranked here; None = plain Spearman) in each
    weighted draw. NaN where a draw leaves fewer than one residual degree of freedom (distinct models drawn
    - 2 - k < 1) or a ranked score without variance after the covariates."""
    weights = np.atleast_2d(np.asarray(weights, float))
    n = weights.shape[1]
    covariates = np.zeros((n, 0)) if covariates is None else np.asarray(covariates, float).reshape(n, -1)
    basis = _weighted_basis([weighted_ranks(column, weights) for column in covariates.T], weights)
    residuals = [_residual(weighted_ranks(values, weights), basis, weights) for values in (x, y)]
    rx, ry = residuals
    with np.errstate(invalid="ignore", divide="ignore"):
        sxx = (weights * rx * rx).sum(axis=1)
        syy = (weights * ry * ry).sum(axis=1)
        scale = (weights * n).sum(axis=1)
        rho = (weights * rx * ry).sum(axis=1) / np.sqrt(sxx * syy)
    degenerate = (sxx <= 1e-12 * scale) | (syy <= 1e-12 * scale)
    distinct = (weights > 0).sum(axis=1)
    rho[degenerate | (distinct - 2 - covariates.shape[1] < 1)] = np.nan
    return np.clip(rho, -1.0, 1.0)


def _weighted_mean(values: np.ndarray, weights: np.ndarray) -> np.ndarray:
    return (weights * values).sum(axis=1, keepdims=True) / weights.sum(axis=1, keepdims=True)


def _weighted_basis(columns: list, weights: np.ndarray) -> list:
    """Gram-Schmidt in the weighted inner product: centred covariates, each made orthogonal to the ones
    before it (weighted least squares on [1, covariates] without a matrix inverse; an aliased column,
    with nothing left after the projection, is dropped per draw, as a pseudo-inverse would)."""
    basis = []
    for column in columns:
        residual = _residual(column, basis, weights)
        norm = (weights * residual * residual).sum(axis=1, keepdims=True)
        scale = (weights * (column - _weighted_mean(column, weights)) ** 2).sum(axis=1, keepdims=True)
        basis.append(np.where(norm > 1e-12 * np.maximum(scale, 1.0), residual, 0.0))
    return basis


def _residual(values: np.ndarray, basis: list, weights: np.ndarray) -> np.ndarray:
    """``values`` less their weighted mean and their weighted projection on each (orthogonal) basis column."""
    residual = values - _weighted_mean(values, weights)
    for column in basis:
        norm = (weights * column * column).sum(axis=1, keepdims=True)
        with np.errstate(invalid="ignore", divide="ignore"):
            coefficient = np.where(norm > 0, (weights * column * residual).sum(axis=1, keepdims=True) / norm, 0.0)
        residual = residual - coefficient * column
    return residual


def percentile_interval(samples: np.ndarray, level: float) -> tuple[float, float, int]:
    """(low, high, number of defined draws) of the percentile interval; NaN when fewer than half are defined."""
    defined = samples[np.isfinite(samples)]
    if len(defined) < max(2, len(samples) // 2):
        return np.nan, np.nan, len(defined)
    tail = (1.0 - level) / 2.0
    return float(np.quantile(defined, tail)), float(np.quantile(defined, 1.0 - tail)), len(defined)
