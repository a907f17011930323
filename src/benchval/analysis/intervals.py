"""Bootstrap intervals of the pairwise tables' correlations (``correlations_cs_cs``,
``correlations_cs_downstream``, ``revision_pairs``) and of the partial Spearman correlations.

Resampling unit: models, not families. Every interval of the chain resamples models (the revision
groups, delta-rho, the axis tests, LOFO's gain), so the headline intervals do too, on the same
seed; a family-cluster bootstrap would have only as many clusters as families (6 in the paper's
study), too few for a percentile interval. The models of a family are not independent: the
intervals treat them as exchangeable and are therefore too narrow where family mates agree more
than models of different families. The family structure enters the estimates instead (family
dummies in the partial correlation, the leave-one-family-out rows and LOFO).

Spearman pairs: the pairs with the same pairwise-complete model set share one set of resamples
(keyed by table, metric and models). A resample is handled as the counts with which each model was
drawn: its ranks come from cumulated counts and rho is their count-weighted correlation, equal to
:func:`benchval.analysis.bootstrap.bootstrap_spearman` on the resampled rows (tested) at O(B n) per
task, in chunks of resamples so that a study of thousands of models stays within memory.

Partial Spearman: a resample is a vector of counts ``w`` (how often each model was drawn). The
resample's partial correlation is computed from the counts without materialising the resample:
ranks with ties of the resampled values (from cumulated counts), the family dummies absorbed by
weighted within-family centring (Frisch-Waugh-Lovell), the remaining covariates (log size, control
composite) regressed out by weighted least squares. That equals
:func:`benchval.analysis.partial.partial_spearman` on the resampled rows (tested), at O(B n) cost.
The covariates keep their full-sample values (the control composite is not re-standardised).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from benchval.analysis import bootstrap

#: the interval columns every correlation table carries
INTERVAL_COLUMNS = ["ci_low", "ci_high", "n_boot_valid"]
#: values (resamples x models) handled at once
CHUNK_ELEMENTS = 4_000_000


def spearman_interval_columns(
    table: pd.DataFrame, wide: pd.DataFrame, a: str, b: str, settings, key: tuple
) -> pd.DataFrame:
    """``table`` (one row per task pair in columns ``a``, ``b``, with ``rho``) with ``ci_low``,
    ``ci_high`` and ``n_boot_valid``: the percentile interval at ``settings.ci_level`` over
    ``settings.n_bootstrap`` resamples of the pair's pairwise-complete models. Pairs whose
    estimate is undefined get no interval (NaN, 0 valid resamples)."""
    table = table.copy()
    after = table.columns.get_loc("rho") + 1
    for offset, column in enumerate(INTERVAL_COLUMNS):
        table.insert(after + offset, column, np.nan if column != "n_boot_valid" else 0)
    groups: dict[tuple, list[int]] = {}
    for position, row in enumerate(table.itertuples(index=False)):
        if not np.isfinite(row.rho):
            continue
        pair = [getattr(row, a), getattr(row, b)]
        groups.setdefault(tuple(wide[pair].dropna().index), []).append(position)
    notes = table["note"].astype(object).where(table["note"].notna(), "").tolist() if "note" in table else None
    for models, positions in groups.items():
        tasks = list(dict.fromkeys(t for p in positions for t in (table.iloc[p][a], table.iloc[p][b])))
        column = {t: i for i, t in enumerate(tasks)}
        matrix = wide.loc[list(models), tasks].to_numpy(float)
        indices = bootstrap.resample_indices(
            bootstrap.rng_for(settings.seed, *key, *models), len(models), settings.n_bootstrap
        )
        pairs = [(column[table.iloc[p][a]], column[table.iloc[p][b]]) for p in positions]
        samples = chunked_spearman(matrix, indices, pairs)
        for k, p in enumerate(positions):
            summary = bootstrap.summarise(float(table.iloc[p]["rho"]), samples[:, k], settings.ci_level)
            table.iloc[p, table.columns.get_loc("ci_low")] = summary["ci_low"]
            table.iloc[p, table.columns.get_loc("ci_high")] = summary["ci_high"]
            table.iloc[p, table.columns.get_loc("n_boot_valid")] = summary["n_boot_valid"]
            if notes is not None:
                notes[p] = "; ".join(
                    filter(None, [notes[p], bootstrap.invalid_note(summary["n_boot_valid"], settings.n_bootstrap)])
                )
    if notes is not None:
        table["note"] = notes
    table["n_boot_valid"] = table["n_boot_valid"].astype(int)
    return table


def chunked_spearman(matrix: np.ndarray, indices: np.ndarray, pairs: list[tuple[int, int]]) -> np.ndarray:
    """Spearman rho of columns (i, j) of ``matrix`` in every resample (rows of ``indices``): B x len(pairs).

    Each resample as draw counts: the ranks of the resampled values from cumulated counts
    (:func:`weighted_ranks`), rho their count-weighted Pearson correlation; equal to
    :func:`bootstrap.bootstrap_spearman` on ``matrix[indices]`` (tested), at O(B n) per column instead
    of sorting every resample. NaN where a column is constant in a resample."""
    n_boot, n_models = indices.shape
    step = max(1, CHUNK_ELEMENTS // max(1, n_models))
    columns = sorted({c for pair in pairs for c in pair})
    out = np.empty((n_boot, len(pairs)))
    for start in range(0, n_boot, step):
        weights = draw_counts(indices[start : start + step], n_models)
        total = weights.sum(axis=1, keepdims=True)
        centred, spread = {}, {}
        for c in columns:
            ranks = weighted_ranks(matrix[:, c], weights)
            centred[c] = ranks - (weights * ranks).sum(axis=1, keepdims=True) / total
            spread[c] = (weights * centred[c] ** 2).sum(axis=1)
        for k, (i, j) in enumerate(pairs):
            with np.errstate(invalid="ignore", divide="ignore"):
                rho = (weights * centred[i] * centred[j]).sum(axis=1) / np.sqrt(spread[i] * spread[j])
            # a column constant in the resample has zero spread (up to rounding): undefined, as spearmanr
            constant = (spread[i] <= 1e-9 * total[:, 0] ** 3) | (spread[j] <= 1e-9 * total[:, 0] ** 3)
            out[start : start + step, k] = np.where(constant, np.nan, np.clip(rho, -1.0, 1.0))
    return out


def draw_counts(indices: np.ndarray, n_models: int) -> np.ndarray:
    """B x n: how often each model was drawn in each resample."""
    offsets = (np.arange(len(indices)) * n_models)[:, None]
    return np.bincount((indices + offsets).ravel(), minlength=len(indices) * n_models).reshape(len(indices), n_models)


# ---------------------------------------------------------------------------- partial Spearman


def weighted_ranks(values: np.ndarray, weights: np.ndarray) -> np.ndarray:
    """Average ranks (1-based, ties averaged) of ``values`` in the sample where model i appears
    ``weights[..., i]`` times; one row per resample. Models drawn 0 times get a rank too (unused)."""
    order = np.argsort(values, kind="stable")
    sorted_values = values[order]
    starts = np.flatnonzero(np.r_[True, sorted_values[1:] != sorted_values[:-1]])
    group = np.cumsum(np.r_[True, sorted_values[1:] != sorted_values[:-1]]) - 1
    counts = np.add.reduceat(weights[..., order], starts, axis=-1)  # copies drawn per tie group
    below = np.cumsum(counts, axis=-1) - counts
    group_rank = below + (counts + 1) / 2.0
    ranks = np.empty_like(weights, dtype=float)
    ranks[..., order] = group_rank[..., group]
    return ranks


def _family_centred(values: np.ndarray, weights: np.ndarray, order: np.ndarray, starts: np.ndarray, group: np.ndarray):
    """``values`` (B x n or n) minus their weighted mean within each family (families absent from a
    resample: no models drawn, nothing to centre)."""
    values = np.broadcast_to(values, weights.shape)
    totals = np.add.reduceat(weights[:, order], starts, axis=1)
    sums = np.add.reduceat((weights * values)[:, order], starts, axis=1)
    with np.errstate(invalid="ignore", divide="ignore"):
        means = np.where(totals > 0, sums / np.where(totals > 0, totals, 1), 0.0)
    centred = np.empty_like(weights, dtype=float)
    centred[:, order] = values[:, order] - means[:, group]
    return centred


def weighted_partial_spearman(
    x: np.ndarray, y: np.ndarray, family: np.ndarray, covariates: np.ndarray, weights: np.ndarray
) -> np.ndarray:
    """Partial Spearman r of x and y given family dummies and ``covariates`` (n x c, unranked) in
    each resample given as counts ``weights`` (B x n); NaN where :func:`partial_spearman` is
    undefined (df < 1 or a zero residual)."""
    weights = np.asarray(weights, float)
    codes = pd.factorize(family)[0]
    order = np.argsort(codes, kind="stable")
    sorted_codes = codes[order]
    starts = np.flatnonzero(np.r_[True, sorted_codes[1:] != sorted_codes[:-1]])
    group = np.cumsum(np.r_[True, sorted_codes[1:] != sorted_codes[:-1]]) - 1

    def centred(values):
        return _family_centred(values, weights, order, starts, group)

    rx, ry = centred(weighted_ranks(x, weights)), centred(weighted_ranks(y, weights))
    covariates = np.asarray(covariates, float).reshape(len(x), -1)
    residuals = []
    if covariates.shape[1]:
        c = np.stack([centred(covariates[:, j]) for j in range(covariates.shape[1])], axis=-1)  # B x n x k
        gram = np.einsum("bn,bnk,bnl->bkl", weights, c, c)
        scale = np.maximum(np.trace(gram, axis1=1, axis2=2), 1e-300)[:, None, None]
        pinv = np.linalg.pinv(gram / scale, rcond=1e-10) / scale
        covariate_rank = np.linalg.matrix_rank(gram / scale, tol=1e-10)
        for r in (rx, ry):
            beta = pinv @ np.einsum("bn,bnk,bn->bk", weights, c, r)[..., None]
            residuals.append(r - np.einsum("bnk,bk->bn", c, beta[..., 0]))
    else:
        covariate_rank = np.zeros(len(weights), int)
        residuals = [rx, ry]
    ex, ey = residuals
    n = weights.sum(axis=1)
    n_families = np.add.reduceat(weights[:, order], starts, axis=1).astype(bool).sum(axis=1)
    df = n - 2 - (n_families - 1) - covariate_rank  # q = rank(Z) - 1: family dummies + the rest
    sxx, syy = (weights * ex * ex).sum(axis=1), (weights * ey * ey).sum(axis=1)
    sxy = (weights * ex * ey).sum(axis=1)
    total_x = (weights * (rx - (weights * rx).sum(1, keepdims=True) / n[:, None]) ** 2).sum(axis=1)
    total_y = (weights * (ry - (weights * ry).sum(1, keepdims=True) / n[:, None]) ** 2).sum(axis=1)
    with np.errstate(invalid="ignore", divide="ignore"):
        r = np.clip(sxy / np.sqrt(sxx * syy), -1.0, 1.0)
    # the tolerance of partial_spearman: a residual norm below 1e-10 of the ranks' spread is zero
    zero = (np.sqrt(sxx) <= 1e-10 * np.maximum(np.sqrt(total_x), 1.0)) | (
        np.sqrt(syy) <= 1e-10 * np.maximum(np.sqrt(total_y), 1.0)
    )
    return np.where((df >= 1) & ~zero, r, np.nan)


def partial_spearman_samples(
    x: np.ndarray, y: np.ndarray, family: np.ndarray, covariates: np.ndarray, indices: np.ndarray
) -> np.ndarray:
    """The resamples' partial Spearman r (one per row of ``indices``), in chunks of resamples."""
    n_models = len(x)
    step = max(1, CHUNK_ELEMENTS // max(1, n_models * (covariates.shape[1] + 4)))
    samples = []
    for start in range(0, len(indices), step):
        chunk = indices[start : start + step]
        weights = draw_counts(chunk, n_models).astype(float)
        samples.append(weighted_partial_spearman(x, y, family, covariates, weights))
    return np.concatenate(samples)
