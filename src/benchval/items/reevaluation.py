"""Re-evaluation noise of the open_llm leaderboards (docs/items.md, "Signal, noise and validity"; issue 44).

The fourth noise source of Heineman et al. 2025 beside item sampling, seed and checkpoint
(:mod:`benchval.items.snr`): the same model evaluated again. The Open LLM Leaderboard files list some
models on several lines; the atlas keeps one line per model and column and writes every listing to
``results/atlas/leaderboards/duplicates.csv`` (``lines``, ``values``: ``;``-joined, one per listing).

Per benchmark column of the chosen leaderboards:

* ``signal``: the standard deviation (ddof 1) across models of the atlas's main table
  (``results/atlas/cells.csv``, one score per model).
* ``noise_reevaluation``: the pooled within-model standard deviation of the listings of the models
  listed two or more times under one raw name: sqrt(sum of squared deviations from each model's mean /
  sum of (listings - 1)).
* ``snr_reevaluation`` = signal / noise, with an interval that resamples the main table's models (a
  resampled model brings its score and, if it has them, its re-evaluations).

A canonical model whose listings carry several raw names (the registry merged them) may be different
models, not a re-evaluation: it is left out of the noise and named in ``excluded``.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

OPEN_LLM_LEADERBOARDS = ("hf_open_llm_v1", "hf_open_llm_v2")


def pooled_within_sd(listings: list[np.ndarray]) -> float:
    """sqrt(sum of squared deviations from each group's mean / sum of (size - 1)); NaN without dof."""
    squares = sum(float(((v - v.mean()) ** 2).sum()) for v in listings)
    dof = sum(len(v) - 1 for v in listings)
    return float(np.sqrt(squares / dof)) if dof > 0 else np.nan


def reevaluations(duplicates: pd.DataFrame, column: str) -> tuple[dict[str, np.ndarray], list[str]]:
    """({model: its listed scores} for one column, models left out because their listings carry several
    raw names)."""
    rows = duplicates[duplicates["column"] == column]
    several_names = rows["raw_names"].astype(str).str.contains(" | ", regex=False)
    kept = {
        model: np.array(str(values).split(";"), dtype=float)
        for model, values in zip(rows.loc[~several_names, "canonical_id"], rows.loc[~several_names, "values"])
    }
    kept = {model: v[np.isfinite(v)] for model, v in kept.items() if np.isfinite(v).sum() >= 2}
    return kept, sorted(rows.loc[several_names, "canonical_id"])


def _resampled_snr(scores: pd.Series, listings: dict[str, np.ndarray], rng, n_boot: int) -> np.ndarray:
    """SNR per resample of the models of ``scores`` (bootstrap counts as weights: a model drawn twice
    counts twice in the signal and in the pooled noise)."""
    n = len(scores)
    counts = rng.multinomial(n, np.full(n, 1.0 / n), size=n_boot).astype(float)
    x = scores.to_numpy(float)
    mean = counts @ x / n
    signal = np.sqrt((counts * (x[None, :] - mean[:, None]) ** 2).sum(axis=1) / (n - 1))
    position = {model: i for i, model in enumerate(scores.index)}
    squares, dof = np.zeros(n), np.zeros(n)
    for model, values in listings.items():
        squares[position[model]] = ((values - values.mean()) ** 2).sum()
        dof[position[model]] = len(values) - 1
    with np.errstate(invalid="ignore", divide="ignore"):
        noise = np.sqrt((counts @ squares) / (counts @ dof))
        return np.where(noise > 0, signal / noise, np.nan)


def column_snr(scores: pd.Series, duplicates: pd.DataFrame, column: str, rng, n_boot: int, level: float) -> dict:
    """One benchmark column's signal, re-evaluation noise and SNR with its model-resampled interval.
    ``scores``: the main table's score per model (index: canonical id)."""
    listings, excluded = reevaluations(duplicates, column)
    missing = sorted(set(listings) - set(scores.index))
    if missing:
        raise ValueError(f"{column}: re-evaluated models {missing[:3]} are not in the main table (cells.csv)")
    signal = float(scores.std(ddof=1))
    noise = pooled_within_sd(list(listings.values()))
    snr = signal / noise if noise > 0 else np.nan
    samples = _resampled_snr(scores, listings, rng, n_boot) if listings else np.array([np.nan])
    valid = samples[np.isfinite(samples)]
    tail = (1 - level) / 2
    low, high = (np.quantile(valid, tail), np.quantile(valid, 1 - tail)) if valid.size else (np.nan, np.nan)
    return {
        "benchmark": column,
        "n_models": len(scores),
        "signal": signal,
        "n_models_reevaluated": len(listings),
        "n_evaluations": int(sum(len(v) for v in listings.values())),
        "noise_reevaluation": noise,
        "snr_reevaluation": snr,
        "snr_ci_low": float(low),
        "snr_ci_high": float(high),
        "n_resamples": int(valid.size),
        "n_excluded": len(excluded),
        "excluded": ";".join(excluded),
    }


def reevaluation_snr(
    cells: pd.DataFrame,
    duplicates: pd.DataFrame,
    rng,
    n_boot: int,
    level: float,
    leaderboards=OPEN_LLM_LEADERBOARDS,
) -> pd.DataFrame:
    """Per benchmark column of ``leaderboards``: the module docstring's table (``source`` states the file
    the re-evaluations come from). ``cells``: the atlas's main table; ``duplicates``: its listings."""
    rows = []
    for leaderboard in leaderboards:
        board = cells[cells["leaderboard"] == leaderboard]
        if board.empty:
            raise ValueError(
                f"leaderboard {leaderboard!r} is not in cells.csv (has: {sorted(cells['leaderboard'].unique())[:5]})"
            )
        for (source, column), group in board.groupby(["source", "column"], sort=True):
            scores = group.set_index("canonical_id")["value"].astype(float).dropna()
            if scores.index.duplicated().any():
                raise ValueError(f"{column}: a model has several scores in cells.csv (duplicates not resolved)")
            row = column_snr(scores, duplicates[duplicates["source"] == source], column, rng, n_boot, level)
            rows.append(
                {"leaderboard": leaderboard, **row, "source": f"re-evaluation: models listed again in {source}"}
            )
    return pd.DataFrame(rows)


def write_reevaluation_snr(cells_csv: str, duplicates_csv: str, settings: dict, seed: int, output: str) -> None:
    """Rule items_report's table (``settings``: the ``items`` keys ``n_bootstrap`` and ``ci_level``)."""
    table = reevaluation_snr(
        pd.read_csv(cells_csv),
        pd.read_csv(duplicates_csv),
        np.random.default_rng(int(seed)),
        int(settings["n_bootstrap"]),
        float(settings["ci_level"]),
    )
    table.to_csv(output, index=False)
