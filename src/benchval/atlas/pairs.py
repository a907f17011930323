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

from benchval.analysis.bootstrap import bootstrap_spearman, resample_indices, rng_for, summarise
from benchval.analysis.correlation import spearman
from benchval.analysis.fdr import benjamini_hochberg

PAIR_COLUMNS = [
    "column_a",
    "column_b",
    "leaderboard_a",
    "leaderboard_b",
    "n_models",
    "rho",
    "ci_low",
    "ci_high",
    "p",
    "p_fdr",
    "n_boot_valid",
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


def rho_with_interval(x: np.ndarray, y: np.ndarray, min_models: int, n_boot: int, level: float, rng) -> dict:
    rho, p, n = spearman(x, y, min_models)
    samples = bootstrap_spearman(np.column_stack([x, y]), resample_indices(rng, len(x), n_boot))[:, 0, 1]
    summary = summarise(rho, samples, level)
    return {
        "n_models": n,
        "rho": rho,
        "p": p,
        "ci_low": summary["ci_low"],
        "ci_high": summary["ci_high"],
        "n_boot_valid": summary["n_boot_valid"],
    }


def atlas_pairs(
    wide: pd.DataFrame, leaderboard: dict, aggregates: dict, min_models: int, n_boot: int, level: float, seed: int
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """(pairs table with FDR across the atlas, excluded pairs with their rule)."""
    counts = shared_counts(wide)
    columns = list(wide.columns)
    records, excluded = [], []
    for i, a in enumerate(columns):
        for b in columns[i + 1 :]:
            n = int(counts.at[a, b])
            if n < min_models:
                continue
            if aggregate_pair(a, b, leaderboard, aggregates):
                excluded.append(
                    {
                        "column_a": a,
                        "column_b": b,
                        "n_models": n,
                        "rule": f"one is the aggregate of leaderboard {leaderboard[a]!r} (atlas.aggregate_columns)",
                    }
                )
                continue
            both = wide[[a, b]].dropna().to_numpy(float)
            values = rho_with_interval(both[:, 0], both[:, 1], min_models, n_boot, level, rng_for(seed, "atlas", a, b))
            records.append(
                {
                    "column_a": a,
                    "column_b": b,
                    "leaderboard_a": leaderboard[a],
                    "leaderboard_b": leaderboard[b],
                    **values,
                }
            )
    pairs = pd.DataFrame.from_records(records, columns=[c for c in PAIR_COLUMNS if c != "p_fdr"])
    defined = pairs["p"].notna()
    pairs["p_fdr"] = np.nan
    pairs.loc[defined, "p_fdr"] = benjamini_hochberg(pairs.loc[defined, "p"].to_numpy())
    return pairs[PAIR_COLUMNS], pd.DataFrame(excluded, columns=["column_a", "column_b", "n_models", "rule"])
