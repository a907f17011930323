"""The atlas proper: every pair of leaderboard columns sharing at least ``atlas.min_models`` models,
Spearman rho (scipy) with a percentile-bootstrap CI over the shared models, n, and Benjamini-Hochberg
FDR across the whole atlas (docs/atlas.md).

Pairs left out, by stated rules (each listed with its rule in the excluded-pairs table):

* a column and its leaderboard's aggregate (``atlas.aggregate_columns``: the average and its parts);
* two columns of one leaderboard's two snapshots cannot occur: one snapshot per leaderboard is used
  (benchval.atlas.leaderboards.select_snapshots).
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from tqdm import tqdm

from scipy import stats

from benchval.analysis.bootstrap import rng_for
from benchval.atlas.general_factor import FactorSettings
from benchval.atlas.groups import column_groups, group_pair_labels, hierarchical_q
from benchval.atlas.incremental import incremental_columns, pair_statistics, population
from benchval.atlas.statistics_settings import IncrementalSettings

PAIR_COLUMNS = [
    "column_a",
    "column_b",
    "leaderboard_a",
    "leaderboard_b",
    "group_a",
    "group_b",
    "n_models",
    "rho",
    "ci_low",
    "ci_high",
    "p",
    "p_fdr",
    "lead_of_group_pair",
    *[c for c in incremental_columns() if c not in ("rho", "ci_low", "ci_high", "n_models", "p")],
    "q_beyond_g",
]


def shared_counts(wide: pd.DataFrame) -> pd.DataFrame:
    """Column x column count of models having both scores."""
    present = wide.notna().to_numpy(float)
    return pd.DataFrame(present.T @ present, index=wide.columns, columns=wide.columns).astype(int)


def aggregate_pair(a: str, b: str, leaderboard: dict, aggregates: dict) -> bool:
    """Whether one of the two columns is the declared aggregate of the other's leaderboard."""
    same = leaderboard[a] == leaderboard[b]
    declared = set(aggregates.get(leaderboard[a], []))
    return bool(same and (a in declared or b in declared))


def same_measure(a: str, b: str, same: dict) -> bool:
    """Whether two columns are declared snapshots of one measure (``atlas.same_measure``: column -> column)."""
    return same.get(a) == b or same.get(b) == a or (a in same and same.get(a) == same.get(b))


def resampled_ranks(values: np.ndarray, indices: np.ndarray) -> np.ndarray:
    """Average ranks (ties averaged, as scipy's rankdata) of ``values[indices]`` within each row, without a
    sort per row: a draw's rank is the count of drawn values below it plus half the count equal to it, +1/2.
    Equals ``scipy.stats.rankdata(values[indices], axis=1)`` (tested)."""
    dense = stats.rankdata(values, method="dense").astype(np.int64) - 1
    n_unique = int(dense.max()) + 1
    drawn = dense[indices]
    rows = np.arange(indices.shape[0])[:, None] * n_unique
    counts = np.bincount((drawn + rows).ravel(), minlength=indices.shape[0] * n_unique).reshape(-1, n_unique)
    below = np.cumsum(counts, axis=1) - counts
    flat = (drawn + rows).ravel()
    return (below.ravel()[flat] + (counts.ravel()[flat] + 1) / 2.0).reshape(drawn.shape)


def bootstrap_rho(x: np.ndarray, y: np.ndarray, indices: np.ndarray) -> np.ndarray:
    """Spearman rho of each resample (rows of ``indices``); NaN where a resample is constant in x or y.
    The same numbers as benchval.analysis.bootstrap.bootstrap_spearman, several times faster for one pair."""
    rx, ry = resampled_ranks(x, indices), resampled_ranks(y, indices)
    rx -= rx.mean(axis=1, keepdims=True)
    ry -= ry.mean(axis=1, keepdims=True)
    with np.errstate(invalid="ignore", divide="ignore"):
        rho = (rx * ry).sum(axis=1) / np.sqrt((rx * rx).sum(axis=1) * (ry * ry).sum(axis=1))
    return np.clip(rho, -1.0, 1.0)


def atlas_pairs(
    wide: pd.DataFrame,
    leaderboard: dict,
    settings: IncrementalSettings,
    models: pd.DataFrame | None = None,
    traits: dict | None = None,
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """(pairs table, excluded pairs with their rule). Per pair: raw Spearman and the partials beyond log
    size, g, and g and log size, with family-clustered bootstrap intervals (benchval.atlas.incremental;
    ``models``: registry rows with family and size_b); p_fdr and q_beyond_g by the hierarchical
    one-measure-one-vote correction (benchval.atlas.groups); ``traits``: column -> trait, whose other
    columns a pair's g leaves out (benchval.atlas.methods)."""
    counts = shared_counts(wide).to_numpy()
    columns = list(wide.columns)
    values = wide.to_numpy(float)
    present = np.isfinite(values)
    measures, min_models = settings.measures, settings.min_models
    groups = column_groups(leaderboard, measures.same_measure, measures.collections)
    people = population(wide, models, groups, FactorSettings.of(settings), traits)
    options = settings.interval_options()
    records, excluded = [], []
    # progress in the job log (rate and time left; the first columns have the most pairs to bootstrap)
    for i, a in enumerate(tqdm(columns, desc="atlas pairs (bootstrap)", unit="column", mininterval=5)):
        for j in range(i + 1, len(columns)):
            b, n = columns[j], int(counts[i, j])
            if n < min_models:
                continue
            rule = exclusion_rule(a, b, leaderboard, measures.aggregates, measures.same_measure)
            if rule:
                excluded.append({"column_a": a, "column_b": b, "n_models": n, "rule": rule})
                continue
            rows = present[:, i] & present[:, j]
            rng = rng_for(settings.resampling.seed, "atlas", a, b)
            result = pair_statistics(people, a, b, values[:, i], values[:, j], rows, options, rng)
            names = {
                "column_a": a,
                "column_b": b,
                "leaderboard_a": leaderboard[a],
                "leaderboard_b": leaderboard[b],
                "group_a": groups[a],
                "group_b": groups[b],
            }
            records.append({**names, **result})
    pairs = pd.DataFrame.from_records(records, columns=[c for c in PAIR_COLUMNS if c not in CORRECTED])
    return with_corrections(pairs)[PAIR_COLUMNS], pd.DataFrame(
        excluded, columns=["column_a", "column_b", "n_models", "rule"]
    )


def exclusion_rule(a: str, b: str, leaderboard: dict, aggregates: dict, same: dict) -> str:
    """Why the pair of columns ``a`` and ``b`` is not correlated (one aggregates the other, or both are
    snapshots of one measure); empty if it is."""
    if aggregate_pair(a, b, leaderboard, aggregates):
        return f"one is the aggregate of leaderboard {leaderboard[a]!r} (atlas.aggregate_columns)"
    if same_measure(a, b, same):
        return "another snapshot of the same measure (atlas.same_measure)"
    return ""


CORRECTED = ("p_fdr", "q_beyond_g", "lead_of_group_pair")


def with_corrections(pairs: pd.DataFrame) -> pd.DataFrame:
    """p_fdr (raw rho) and q_beyond_g by the hierarchical correction over group pairs; the lead of each
    group pair (smallest raw p)."""
    labels = group_pair_labels(pairs["group_a"], pairs["group_b"])
    pairs["p_fdr"], pairs["lead_of_group_pair"] = hierarchical_q(pairs["p"], labels)
    pairs["q_beyond_g"], _ = hierarchical_q(pairs["p_beyond_g"], labels)
    return pairs
