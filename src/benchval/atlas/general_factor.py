"""A general-capability score g per model from the rank-transformed leaderboard matrix (docs/atlas.md,
"Incremental validity").

Method (stated, because most cells of the models x columns matrix are missing):

1. Rank transform: within each column, a model's score becomes its rankit, the normal quantile of
   (average rank - 1/2) / n over the models that column scores. Scales never matter.
2. Correlations: Spearman between every two columns on the models both score (pairwise complete), an entry
   only where at least ``min_models`` models are shared; the others stay missing.
3. Positive-definite correlation matrix (:func:`positive_definite`): the missing entries are filled with the
   values a first one-factor fit of the observed entries implies (l_j l_k), and the matrix is made positive
   definite by eigenvalue clipping with the unit diagonal restored (statsmodels ``corr_clipped``, smallest
   eigenvalue ``EIGENVALUE_FLOOR``); how far the observed entries moved (largest absolute change) is reported
   as ``g_pd_shift``. Every principal submatrix of it (a pair's left-out set) is positive definite too.
4. One-factor model fit to the observed off-diagonal entries of that matrix (MINRES: loadings l minimise
   sum over observed j != k of (r_jk - l_j l_k)^2, by damped alternating least squares), oriented so that the
   loadings sum to a positive number. No loading is clipped: a column with communality l_j^2 >= 1 (a Heywood
   case: uniqueness <= 0) is listed (``g_heywood_columns``), left out of g, and the rest refit, until none is
   left (:func:`fit_without_heywood`).
5. Score: Bartlett's weighted least squares on the columns the model has, with uniqueness psi_j = 1 - l_j^2
   (a weight floor ``uniqueness_floor`` only, loadings untouched),
   g = sum_j (l_j / psi_j) z_j / sum_j (l_j^2 / psi_j); missing (never 0) when the model has fewer than
   ``min_columns`` loaded columns.

g for a pair is computed with the pair's columns and their one-measure-one-vote siblings left out of steps
3 and 4 (benchval.atlas.groups): the covariate never contains the pair's own measures. The rankits of a
column depend on which models that column scores (a 50th percentile among frontier models is not one among
small fine-tunes); that is a limit of every score on a matrix missing not at random, and the reason for the
complete-case comparison on a dense block (:func:`complete_case_check`).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd
from scipy import stats


@dataclass(frozen=True)
class FactorSettings:
    min_models: int = 10  # shared models for a correlation entry
    min_columns: int = 3  # loaded columns a model needs for a g
    uniqueness_floor: float = 0.05
    iterations: int = 500

    @classmethod
    def of(cls, settings) -> FactorSettings:
        """The g of the atlas statistics' settings (benchval.atlas.statistics_settings.IncrementalSettings)."""
        return cls(settings.min_models, settings.min_columns, settings.uniqueness_floor)


def rankits(wide: pd.DataFrame) -> pd.DataFrame:
    """Per column: normal quantile of (average rank - 1/2) / n over the models the column scores."""
    ranks = wide.rank(method="average")
    counts = wide.notna().sum()
    return pd.DataFrame(stats.norm.ppf((ranks - 0.5) / counts), index=wide.index, columns=wide.columns)


def pairwise_spearman(wide: pd.DataFrame, min_models: int) -> pd.DataFrame:
    """Spearman between columns on their shared models (NaN below ``min_models`` shared)."""
    return wide.rank().corr(method="pearson", min_periods=min_models)


EIGENVALUE_FLOOR = 1e-4  # smallest eigenvalue of the positive-definite correlation matrix


def one_factor_loadings(
    correlations: np.ndarray, iterations: int = 500, tolerance: float = 1e-9, start: np.ndarray | None = None
) -> np.ndarray:
    """MINRES loadings of a one-factor model fit to the observed off-diagonal entries (NaN = unobserved);
    NaN for a column with no observed partner. Unclipped: a loading past +-1 is a Heywood case, for the caller
    (:func:`fit_without_heywood`) to list and leave out."""
    corr = np.asarray(correlations, float)
    if corr.size == 0:
        return np.zeros(0)
    observed = np.isfinite(corr) & ~np.eye(len(corr), dtype=bool)
    values = np.where(observed, corr, 0.0)
    mask = observed.astype(float)
    loadings = np.full(len(corr), 0.5) if start is None else np.where(np.isfinite(start), start, 0.5)
    for _ in range(iterations):
        denominator = mask @ (loadings**2)
        with np.errstate(invalid="ignore", divide="ignore"):
            updated = (values @ loadings) / denominator
        # damped: the undamped update maps a scaled solution c*l to l/c and oscillates between the two
        updated = 0.5 * (loadings + np.where(denominator > 0, updated, 0.0))
        if np.max(np.abs(updated - loadings)) < tolerance:
            loadings = updated
            break
        loadings = updated
    if loadings.sum() < 0:
        loadings = -loadings
    loadings[~observed.any(axis=1)] = np.nan
    return loadings


def fit_without_heywood(
    correlations: np.ndarray, iterations: int = 500, start: np.ndarray | None = None
) -> tuple[np.ndarray, list[int]]:
    """(loadings, Heywood column indices): the columns with communality l^2 >= 1 are left out (NaN loading)
    and the others refit, until no Heywood case is left."""
    corr = np.array(correlations, float)
    heywood: list[int] = []
    loadings = one_factor_loadings(corr, iterations, start=start)
    while True:
        found = [int(j) for j in np.flatnonzero(np.isfinite(loadings) & (loadings**2 >= 1.0))]
        if not found:
            break
        heywood += found
        corr[found, :] = np.nan
        corr[:, found] = np.nan
        loadings = one_factor_loadings(corr, iterations, start=loadings)
    loadings[heywood] = np.nan
    return loadings, heywood


def positive_definite(correlations: np.ndarray, iterations: int = 500) -> tuple[np.ndarray, float]:
    """(the positive-definite correlation matrix of step 3, largest absolute change of an observed entry).
    Missing entries are filled with a first fit's l_j l_k (kept within +-1); a column with no observed
    partner stays NaN."""
    from statsmodels.stats.correlation_tools import corr_clipped

    corr = np.asarray(correlations, float)
    if corr.size == 0:
        return corr.copy(), 0.0
    loadings = one_factor_loadings(corr, iterations)
    usable = np.isfinite(loadings)
    implied = np.clip(np.outer(loadings, loadings), -0.99, 0.99)
    filled = np.where(np.isfinite(corr), corr, implied)[np.ix_(usable, usable)]
    np.fill_diagonal(filled, 1.0)
    projected = corr_clipped(filled, threshold=EIGENVALUE_FLOOR)
    result = np.full_like(corr, np.nan)
    result[np.ix_(usable, usable)] = np.where(np.isfinite(corr[np.ix_(usable, usable)]), projected, np.nan)
    shift = np.nanmax(np.abs(result - corr)) if np.isfinite(result).any() else 0.0
    return result, float(shift)


def bartlett_scores(z: np.ndarray, loadings: np.ndarray, settings: FactorSettings) -> tuple[np.ndarray, np.ndarray]:
    """(g per model, loaded columns each model has); g NaN below ``settings.min_columns``."""
    usable = np.isfinite(loadings)
    z, loadings = z[:, usable], loadings[usable]
    uniqueness = np.maximum(1.0 - loadings**2, settings.uniqueness_floor)
    present = np.isfinite(z)
    weights = loadings / uniqueness
    numerator = np.where(present, z, 0.0) @ weights
    denominator = present.astype(float) @ (weights * loadings)
    n_columns = present.sum(axis=1)
    with np.errstate(invalid="ignore", divide="ignore"):
        g = numerator / denominator
    g[(n_columns < settings.min_columns) | ~(denominator > 0)] = np.nan
    return g, n_columns


class GeneralFactor:
    """g of every model with given columns left out; the fit is cached per left-out set."""

    def __init__(self, wide: pd.DataFrame, settings: FactorSettings):
        self.index = wide.index
        self.columns = list(wide.columns)
        self.z = rankits(wide).to_numpy(float)
        pairwise = pairwise_spearman(wide, settings.min_models).to_numpy(float)
        self.correlations, self.pd_shift = positive_definite(pairwise, settings.iterations)
        self.settings = settings
        self._cache: dict[frozenset, np.ndarray] = {}
        self._fits: dict[frozenset, tuple[list, np.ndarray, list[str]]] = {}
        self.loadings = one_factor_loadings(self.correlations, settings.iterations)

    def scores(self, left_out) -> pd.Series:
        """g of every model from the columns not in ``left_out``."""
        key = frozenset(left_out)
        if key not in self._cache:
            keep = np.array([c not in key for c in self.columns])
            loadings, heywood = fit_without_heywood(
                self.correlations[np.ix_(keep, keep)], self.settings.iterations, start=self.loadings[keep]
            )
            self._cache[key] = bartlett_scores(self.z[:, keep], loadings, self.settings)[0]
            columns = [c for c, k in zip(self.columns, keep) if k]
            self._fits[key] = (columns, loadings, [columns[j] for j in heywood])
        return pd.Series(self._cache[key], index=self.index)

    def fit(self, left_out) -> dict:
        """What the g without ``left_out`` rests on: its loaded columns, its Heywood columns (left out of it)
        and how far the positive-definite projection moved an observed correlation."""
        key = frozenset(left_out)
        self.scores(key)
        _, loadings, heywood = self._fits[key]
        return {
            "g_columns": int(np.isfinite(loadings).sum()),
            "g_heywood_columns": ";".join(heywood),
            "g_pd_shift": self.pd_shift,
        }

    def variance_explained(self, left_out) -> float:
        """The mean squared loading of the loaded columns of the g without ``left_out``."""
        key = frozenset(left_out)
        self.scores(key)
        loadings = self._fits[key][1]
        return float(np.nanmean(loadings**2)) if np.isfinite(loadings).any() else float("nan")


def complete_case_check(wide: pd.DataFrame, columns: list[str], settings: FactorSettings) -> pd.DataFrame:
    """On a dense block (``columns``, the models scoring all of them): the pairwise-MINRES g of this module
    against the complete-case first principal component (scikit-learn PCA of the standardised rankits).
    One row: models, columns, Spearman and Pearson of the two scores, largest absolute rank difference."""
    from sklearn.decomposition import PCA

    block = wide[columns].dropna()
    z = rankits(block)
    pca = PCA(n_components=1).fit(z.to_numpy())
    component = pca.transform(z.to_numpy())[:, 0]
    if pca.components_[0].sum() < 0:
        component = -component
    g = GeneralFactor(block, settings).scores(())
    rank_difference = np.abs(stats.rankdata(component) - stats.rankdata(g.to_numpy()))
    return pd.DataFrame(
        [
            {
                "block": ";".join(columns),
                "n_models": len(block),
                "n_columns": len(columns),
                "pca_explained_variance": float(pca.explained_variance_ratio_[0]),
                "spearman_g_vs_complete_case_pc1": float(stats.spearmanr(component, g).statistic),
                "pearson_g_vs_complete_case_pc1": float(stats.pearsonr(component, g).statistic),
                "max_abs_rank_difference": float(rank_difference.max()),
                "median_abs_rank_difference": float(np.median(rank_difference)),
            }
        ]
    )
