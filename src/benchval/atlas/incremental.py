"""Incremental validity of one pair of columns (docs/atlas.md, "Incremental validity"): the raw Spearman rho
beside the partial Spearman beyond log size, beyond general capability g (benchval.atlas.general_factor,
computed without the pair's columns and their siblings) and beyond g and log size, each on its own models,
with a family-clustered bootstrap interval (benchval.atlas.clustered) and its n; and the raw rho on exactly
the models the partial beyond g uses, so that a drop from raw to partial is not a change of population.
A partial's interval is computed only on at least ``min_interval_n`` models (atlas.min_headline_n: no claim
is made on fewer, and the bootstraps of thousands of small pairs are most of the atlas's time); below, it is
missing and the note says so.

Every statistic here is rank-based with ranked covariates (a partial Spearman in pingouin's sense), p from
Student's t with n - 2 - k degrees of freedom (benchval.analysis.partial.partial_spearman on the ranked
covariates). A value that cannot be computed is missing and the ``note`` says why.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import pandas as pd
from scipy import stats

from benchval.analysis.undefined import UndefinedStatistic
from benchval.atlas.clustered import cluster_weights, percentile_interval, weighted_partial
from benchval.atlas.general_factor import FactorSettings, GeneralFactor

#: statistic -> which covariates (log size, g) it removes
STATISTICS = {"": (), "beyond_size": ("size",), "beyond_g": ("g",), "beyond_g_size": ("g", "size")}


def _columns(name: str) -> dict:
    rho = f"rho_{name}" if name else "rho"
    return {
        "rho": rho,
        "low": f"{rho}_ci_low" if name else "ci_low",
        "high": f"{rho}_ci_high" if name else "ci_high",
        "n": f"n_{name}" if name else "n_models",
        "p": f"p_{name}" if name else "p",
        "clusters": f"n_clusters_{name}" if name else "n_clusters",
    }


def incremental_columns() -> list[str]:
    """The columns :func:`incremental_validity` returns, in table order."""
    names = []
    for name in STATISTICS:
        c = _columns(name)
        names += [c["rho"], c["low"], c["high"], c["n"], c["clusters"], c["p"]]
    return names + ["rho_same_population", "n_boot_valid", "note", "g_columns", "g_heywood_columns", "g_pd_shift"]


def _estimate(x, y, covariates, min_models: int) -> tuple[float, float]:
    """(r, p): the partial Spearman with ranked covariates (None: Spearman), p from Student's t with
    n - 2 - k degrees of freedom (scipy's spearmanr p when k = 0; benchval.analysis.partial's otherwise)."""
    n, k = len(x), 0 if covariates is None else covariates.shape[1]
    if n < min_models:
        raise UndefinedStatistic(f"{n} models (minimum {min_models})")
    r = float(weighted_partial(x, y, covariates, np.ones((1, n)))[0])
    if not np.isfinite(r):
        raise UndefinedStatistic("a ranked score without variance (after the covariates)")
    df = n - 2 - k
    with np.errstate(over="ignore"):
        t = r * np.sqrt(df / max(1.0 - r * r, np.finfo(float).tiny))
    return r, float(2.0 * stats.t.sf(abs(t), df))


def incremental_validity(
    x: np.ndarray,
    y: np.ndarray,
    covariates: dict,
    clusters: np.ndarray,
    settings: dict,
    rng: np.random.Generator,
) -> dict:
    """Every statistic of :data:`STATISTICS` for scores x, y of the shared models (no NaN), with
    ``covariates`` {"size": log size, "g": g} per model (NaN where unknown) and ``clusters`` (families)."""
    record, notes = {}, []
    for name, needs in STATISTICS.items():
        c = _columns(name)
        rows = np.ones(len(x), bool)
        for covariate in needs:
            rows &= np.isfinite(covariates[covariate])
        z = np.column_stack([covariates[k][rows] for k in needs]) if needs else None
        record[c["n"]] = int(rows.sum())
        record[c["clusters"]] = int(len(set(clusters[rows])))
        try:
            record[c["rho"]], record[c["p"]] = _estimate(x[rows], y[rows], z, settings["min_models"])
        except UndefinedStatistic as undefined:
            record[c["rho"]] = record[c["p"]] = record[c["low"]] = record[c["high"]] = np.nan
            notes.append(f"{c['rho']} undefined: {undefined}")
            continue
        if name and record[c["n"]] < settings.get("min_interval_n", 0):
            record[c["low"]] = record[c["high"]] = np.nan
            notes.append(f"{c['rho']}: {record[c['n']]} models, below atlas.min_headline_n: no interval computed")
            continue
        if record[c["clusters"]] < settings["min_clusters"]:
            record[c["low"]] = record[c["high"]] = np.nan
            notes.append(f"{c['rho']}: {record[c['clusters']]} families, no clustered interval")
            continue
        weights = cluster_weights(clusters[rows], settings["n_bootstrap"], rng)
        samples = weighted_partial(x[rows], y[rows], z, weights)
        record[c["low"]], record[c["high"]], valid = percentile_interval(samples, settings["ci_level"])
        if name == "":
            record["n_boot_valid"] = valid
    g_rows = np.isfinite(covariates["g"])
    try:
        record["rho_same_population"] = _estimate(x[g_rows], y[g_rows], None, settings["min_models"])[0]
    except UndefinedStatistic:
        record["rho_same_population"] = np.nan
    record.setdefault("n_boot_valid", 0)
    record["note"] = "; ".join(notes)
    return record


@dataclass
class Population:
    """What every pair's incremental statistics read: per model its log size and cluster (family; a model
    without one is its own cluster), the general factor, and the one-measure-one-vote groups."""

    log_size: pd.Series
    clusters: pd.Series
    factor: GeneralFactor
    groups: dict
    traits: dict = field(default_factory=dict)  # column -> trait (benchval.atlas.methods.trait_groups)
    _g: dict = field(default_factory=dict)

    def left_out(self, *columns: str) -> frozenset:
        """``columns``, their one-measure-one-vote siblings and every column measuring their traits elsewhere
        (another harness or board, or an exact copy: benchval.atlas.methods)."""
        groups = {self.groups[c] for c in columns}
        traits = {self.traits[c] for c in columns if c in self.traits}
        return frozenset(
            {c for c, group in self.groups.items() if group in groups}
            | {c for c, trait in self.traits.items() if trait in traits}
            | set(columns)
        )

    def g_without(self, *columns: str) -> np.ndarray:
        """g of every model (in the order of the index) without :meth:`left_out` of ``columns``."""
        key = self.left_out(*columns)
        if key not in self._g:
            self._g[key] = self.factor.scores(key).to_numpy(float)
        return self._g[key]

    def g_fit(self, *columns: str) -> dict:
        """The loaded and the Heywood columns of the g without ``columns`` (GeneralFactor.fit)."""
        return self.factor.fit(self.left_out(*columns))

    def g_variance_explained(self, *columns: str) -> float:
        """The share of variance the g without ``columns`` explains (GeneralFactor.variance_explained)."""
        return self.factor.variance_explained(self.left_out(*columns))


def population(
    wide: pd.DataFrame,
    models: pd.DataFrame | None,
    groups: dict,
    factor: FactorSettings,
    traits: dict | None = None,
) -> Population:
    """The :class:`Population` of ``wide``'s models (``models``: registry rows with family and size_b;
    ``traits``: column -> trait, the columns a pair's g leaves out beside its groups)."""
    models = (models if models is not None else pd.DataFrame(index=wide.index)).reindex(wide.index)
    size = models["size_b"] if "size_b" in models else pd.Series(np.nan, index=wide.index)
    family = models["family"] if "family" in models else pd.Series(np.nan, index=wide.index)
    labels = family.astype(object).where(family.notna(), "model:" + wide.index.to_series().astype(str))
    clusters = pd.Series(pd.factorize(labels)[0], index=wide.index)
    return Population(np.log(size.astype(float)), clusters, GeneralFactor(wide, factor), groups, dict(traits or {}))


def pair_statistics(population: Population, a: str, b: str, x, y, rows, settings: dict, rng) -> dict:
    """:func:`incremental_validity` of columns a and b on their shared models ``rows`` (boolean, per model)."""
    g = population.g_without(a, b)[rows]
    covariates = {"size": population.log_size.to_numpy(float)[rows], "g": g}
    record = incremental_validity(x[rows], y[rows], covariates, population.clusters.to_numpy()[rows], settings, rng)
    return {**record, **population.g_fit(a, b)}
