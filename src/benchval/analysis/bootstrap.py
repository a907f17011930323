"""Vectorised nonparametric bootstrap over models (all resamples at once, no Python loop).

A resample draws ``n`` models with replacement. For a complete-case score matrix ``X``
(n models x k tasks) every resample's k x k Spearman matrix is computed in one go: the
resampled stack (B x n x k) is ranked along the model axis with
:func:`scipy.stats.rankdata` (average ranks for ties, as ``spearmanr``), centred, scaled to
unit norm and multiplied (``einsum``). A column that is constant within a resample gives
NaN for that resample's correlations; summaries drop such resamples and count them.

Seeding: :func:`rng_for` derives an independent ``numpy.random.Generator`` from the config
seed and a text key (e.g. ``"revisions/accuracy"``), so a statistic's resamples do not
depend on which other statistics were computed before it; same seed, same numbers.
"""

from __future__ import annotations

import zlib

import numpy as np
from scipy import stats


def rng_for(seed: int, *key: object) -> np.random.Generator:
    """A Generator seeded by ``seed`` and a stable hash (CRC32) of ``key``."""
    text = "/".join(str(k) for k in key)
    return np.random.default_rng([int(seed), zlib.crc32(text.encode("utf-8"))])


def resample_indices(rng: np.random.Generator, n_models: int, n_boot: int) -> np.ndarray:
    """``n_boot`` x ``n_models`` row indices, each row a draw with replacement."""
    return rng.integers(0, n_models, size=(n_boot, n_models))


def spearman_matrices(stack: np.ndarray) -> np.ndarray:
    """Spearman correlation matrices of a stack of score matrices.

    ``stack``: (..., n, k) without NaN. Returns (..., k, k); NaN where a column is constant.
    """
    ranks = stats.rankdata(stack, axis=-2)
    centred = ranks - ranks.mean(axis=-2, keepdims=True)
    norms = np.sqrt(np.einsum("...nk,...nk->...k", centred, centred))
    with np.errstate(invalid="ignore", divide="ignore"):
        unit = centred / norms[..., None, :]
        unit[~np.isfinite(unit)] = np.nan
        corr = np.einsum("...nk,...nl->...kl", unit, unit)
    return np.clip(corr, -1.0, 1.0)


def bootstrap_spearman(matrix: np.ndarray, indices: np.ndarray) -> np.ndarray:
    """Spearman matrices (B x k x k) of ``matrix`` (n x k) resampled by ``indices`` (B x n)."""
    return spearman_matrices(matrix[indices])


#: the keys of :func:`summarise`, in the order the tables show them
SUMMARY_COLUMNS = ["estimate", "ci_low", "ci_high", "p_boot", "n_boot_valid"]


def summarise(point: float, samples: np.ndarray, level: float) -> dict:
    """Percentile CI, two-sided bootstrap p and valid-resample count for one statistic.

    ``p_boot`` = min(1, 2 * min(#(s <= 0) + 1, #(s >= 0) + 1) / (B_valid + 1)), the two-sided
    percentile-bootstrap p with the +1 correction (never exactly 0; smallest 2 / (B + 1)).
    """
    valid = samples[np.isfinite(samples)]
    n_valid = int(valid.size)
    if n_valid == 0:
        return {"estimate": point, "ci_low": np.nan, "ci_high": np.nan, "p_boot": np.nan, "n_boot_valid": 0}
    tail = (1.0 - level) / 2.0
    low, high = np.quantile(valid, [tail, 1.0 - tail])
    p_boot = min(1.0, 2.0 * (min(np.sum(valid <= 0), np.sum(valid >= 0)) + 1) / (n_valid + 1))
    return {
        "estimate": point,
        "ci_low": float(low),
        "ci_high": float(high),
        "p_boot": float(p_boot),
        "n_boot_valid": n_valid,
    }


def invalid_note(n_valid: int, n_boot: int) -> str:
    """A note when some resamples gave an undefined statistic (constant column)."""
    if n_valid == n_boot:
        return ""
    return f"{n_boot - n_valid} of {n_boot} resamples undefined (constant scores) and dropped"
