"""Signal, noise and validity of a benchmark (docs/items.md, "Signal, noise and validity"; after Heineman
et al. 2025, "Signal and Noise", arXiv 2508.13144).

Per benchmark, over the study's models (the unit scores the validity analysis correlates):

* ``signal``: the standard deviation of the models' benchmark scores (ddof 1).
* noise, each where the data has it, named by its source:
  - ``noise_item``: item sampling, the root mean square over models of the standard error of a model's
    mean over the benchmark's items (sd of its item scores / sqrt(items)); every source.
  - ``noise_seed``: pretraining seed, the pooled within-lineage standard deviation of the scores of
    lineages with several seeds (nlu_test_sets: the three MiniBERTa seeds of each pretraining size).
  - ``noise_checkpoint``: the pooled within-model standard deviation of the scores of the last two
    checkpoints (nlu_test_sets: ``_50`` and ``_best``), the late-training wobble Heineman et al. call noise.
* ``snr_<source>`` = signal / noise_<source>; ``snr`` = signal / sqrt(sum of the measured noise
  variances). A noise the data cannot measure is missing (NaN) with the reason in ``noise_missing``.
* ``reliability``: split-half (odd / even items), Spearman-Brown corrected Pearson r across models.
* ``decision_accuracy_<c>``: the share of model pairs an early checkpoint ``c`` orders as the final
  (``_best``) one does (pairs tied at either left out): do early checkpoints decide like the final one.
"""

from __future__ import annotations

from itertools import combinations

import numpy as np
import pandas as pd
from scipy import stats

from benchval.items.inference import cluster_indices, resampled_spearman
from benchval.items.lineage import MINIBERTA_SEED, nlu_lineage
from benchval.items.readers import nlu_checkpoint
from benchval.items.validity import spearman_columns

EARLY_CHECKPOINTS = ("1", "10", "25", "50")
LATE_CHECKPOINTS = ("50", "best")


def item_noise(matrix: np.ndarray) -> float:
    """Root mean square over models (rows) of the standard error of the row mean over items (columns)."""
    se2 = matrix.var(axis=1, ddof=1) / matrix.shape[1]
    return float(np.sqrt(se2.mean()))


def pooled_sd(scores: pd.Series, groups: pd.Series) -> float:
    """Pooled within-group standard deviation over the groups with two or more members (NaN: none)."""
    frame = pd.DataFrame({"score": scores, "group": groups.reindex(scores.index)})
    sizes = frame.groupby("group")["score"].transform("size")
    frame = frame[sizes >= 2]
    if frame.empty:
        return np.nan
    squares = frame.groupby("group")["score"].agg(lambda s: ((s - s.mean()) ** 2).sum())
    dof = frame.groupby("group")["score"].size() - 1
    return float(np.sqrt(squares.sum() / dof.sum()))


def split_half_reliability(matrix: np.ndarray) -> float:
    odd, even = matrix[:, 0::2].mean(axis=1), matrix[:, 1::2].mean(axis=1)
    if odd.std() == 0 or even.std() == 0:
        return np.nan
    r = float(np.corrcoef(odd, even)[0, 1])
    return 2.0 * r / (1.0 + r)


def decision_accuracy(early: pd.Series, final: pd.Series) -> float:
    """Share of model pairs ordered alike by ``early`` and ``final`` (pairs tied in either left out)."""
    models = sorted(set(early.dropna().index) & set(final.dropna().index))
    agree = total = 0
    for a, b in combinations(models, 2):
        sign = np.sign(early[a] - early[b]) * np.sign(final[a] - final[b])
        if sign != 0:
            total += 1
            agree += sign > 0
    return agree / total if total else np.nan


def checkpoint_scores(runs: pd.DataFrame, unit_of: dict) -> pd.DataFrame:
    """units x checkpoints: each run's mean score, by its unit and checkpoint (nlu run names)."""
    frame = pd.DataFrame(
        {
            "unit": [unit_of[r] for r in runs.index],
            "checkpoint": [nlu_checkpoint(r) for r in runs.index],
            "score": runs.mean(axis=1).to_numpy(),
        }
    )
    return frame.pivot_table(index="unit", columns="checkpoint", values="score")


def seed_groups(models) -> pd.Series:
    """model -> its pretraining lineage, for the models that are one seed of a lineage (MiniBERTa)."""
    return pd.Series({m: nlu_lineage(m) for m in models if MINIBERTA_SEED.match(m)}, dtype=object)


def benchmark_snr(units: pd.DataFrame, runs: pd.DataFrame | None = None, unit_of=None) -> dict:
    """The signal, noises, SNRs, reliability and decision accuracies of one benchmark (module docstring).
    ``units``: models x items; ``runs``: the run-level matrix with checkpoints (nlu), else None."""
    values = units.to_numpy(float)
    scores = pd.Series(values.mean(axis=1), index=units.index)
    row = {"n_models": len(units), "n_items": units.shape[1], "signal": float(scores.std(ddof=1))}
    row["noise_item"] = item_noise(values)
    row["noise_seed"] = pooled_sd(scores, seed_groups(units.index).reindex(units.index))
    missing = [] if np.isfinite(row["noise_seed"]) else ["seed: no lineage with several seeds"]
    checkpoints = None if runs is None else checkpoint_scores(runs, unit_of)
    if checkpoints is not None and set(LATE_CHECKPOINTS) <= set(checkpoints.columns):
        late = checkpoints[list(LATE_CHECKPOINTS)].stack()
        row["noise_checkpoint"] = pooled_sd(late.reset_index(drop=True), pd.Series(late.index.get_level_values(0)))
    else:
        row["noise_checkpoint"] = np.nan
        missing.append("checkpoint: the source has no checkpoints")
    noises = [row[f"noise_{s}"] for s in ("item", "seed", "checkpoint") if np.isfinite(row[f"noise_{s}"])]
    for source in ("item", "seed", "checkpoint"):
        row[f"snr_{source}"] = row["signal"] / row[f"noise_{source}"] if row[f"noise_{source}"] > 0 else np.nan
    row["snr"] = row["signal"] / float(np.sqrt(np.sum(np.square(noises))))
    row["noise_sources"] = ";".join(s for s in ("item", "seed", "checkpoint") if np.isfinite(row[f"noise_{s}"]))
    row["noise_missing"] = "; ".join(missing + ["re-evaluation: no repeated evaluations of one model in item data"])
    row["reliability"] = split_half_reliability(values)
    for early in EARLY_CHECKPOINTS:
        has = checkpoints is not None and {early, "best"} <= set(checkpoints.columns)
        row[f"decision_accuracy_{early}"] = (
            decision_accuracy(checkpoints[early], checkpoints["best"]) if has else np.nan
        )
    return row


def _gather(vector: np.ndarray, indices: np.ndarray) -> np.ndarray:
    """B x L: ``vector`` at the resampled rows, NaN at the padding (-1)."""
    return np.where(indices < 0, np.nan, vector[np.maximum(indices, 0)])


def _resampled_snr(values: np.ndarray, fixed_noise2: float, indices: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per resample: the SNR (signal and item noise resampled, seed and checkpoint noise as measured) and
    the split-half reliability."""
    scores = _gather(values.mean(axis=1), indices)
    se2 = _gather(values.var(axis=1, ddof=1) / values.shape[1], indices)
    snr = np.nanstd(scores, axis=1, ddof=1) / np.sqrt(np.nanmean(se2, axis=1) + fixed_noise2)
    odd, even = _gather(values[:, 0::2].mean(axis=1), indices), _gather(values[:, 1::2].mean(axis=1), indices)
    odd, even = odd - np.nanmean(odd, axis=1, keepdims=True), even - np.nanmean(even, axis=1, keepdims=True)
    with np.errstate(invalid="ignore", divide="ignore"):
        r = np.nansum(odd * even, axis=1) / np.sqrt(np.nansum(odd**2, axis=1) * np.nansum(even**2, axis=1))
    return snr, 2 * r / (1 + r)


def rowwise_spearman(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Spearman rho of each row of ``a`` with the same row of ``b`` (B x n); NaN where a row has a NaN."""
    ranks_a, ranks_b = stats.rankdata(a, axis=1), stats.rankdata(b, axis=1)
    ranks_a, ranks_b = ranks_a - ranks_a.mean(axis=1, keepdims=True), ranks_b - ranks_b.mean(axis=1, keepdims=True)
    with np.errstate(invalid="ignore", divide="ignore"):
        rho = (ranks_a * ranks_b).sum(axis=1) / np.sqrt((ranks_a**2).sum(axis=1) * (ranks_b**2).sum(axis=1))
    return np.where(np.isfinite(a).all(axis=1) & np.isfinite(b).all(axis=1), rho, np.nan)


def _interval(samples: np.ndarray, level: float) -> tuple[float, float]:
    valid = samples[np.isfinite(samples)]
    tail = (1 - level) / 2
    return (float(np.quantile(valid, tail)), float(np.quantile(valid, 1 - tail))) if valid.size else (np.nan, np.nan)


def _relation(measure: str, table: pd.DataFrame, draws: dict, n: int, level: float) -> dict:
    """The Spearman relation of ``measure`` with validity across the ``n`` benchmarks, with its interval from
    the family resamples (missing below 3 benchmarks)."""
    relation = {"relation": f"{measure} vs validity", "n_benchmarks": n}
    if n < 3:
        no_relation = {"spearman_rho": np.nan, "ci_low": np.nan, "ci_high": np.nan}
        return {**relation, **no_relation, "interval": "fewer than 3 benchmarks: no relation"}
    rho_b = rowwise_spearman(np.column_stack(draws[measure]), np.column_stack(draws["validity"]))
    point = spearman_columns(table[[measure]].to_numpy(float), table["validity"].to_numpy(float))[0][0]
    low, high = _interval(rho_b, level)
    interval = f"models resampled by family, benchmarks fixed, {int(np.isfinite(rho_b).sum())} resamples"
    return {**relation, "spearman_rho": point, "ci_low": low, "ci_high": high, "interval": interval}


def snr_validity(
    snr: pd.DataFrame, units: dict, criteria: pd.DataFrame, families: pd.Series, rng, n_boot: int, level: float
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """(per benchmark of ``units``: SNR, reliability and validity, the median over criteria of the full
    benchmark's rho, each with a family-resampled interval; the Spearman relation across benchmarks of
    SNR and reliability with validity, its interval from the same resamples). ``snr``: :func:`benchmark_snr`
    rows indexed by benchmark."""
    models = sorted(set.intersection(*(set(m.index) for m in units.values())))
    indices = cluster_indices(families.reindex(models).to_numpy(), rng, n_boot)
    rows, draws = [], {"snr": [], "reliability": [], "validity": []}
    for benchmark, matrix in units.items():
        values = matrix.loc[models].to_numpy(float)
        fixed = np.nansum([snr.at[benchmark, "noise_seed"] ** 2, snr.at[benchmark, "noise_checkpoint"] ** 2])
        snr_b, reliability_b = _resampled_snr(values, float(fixed), indices)
        rho, rho_b = [], []
        for criterion in criteria.columns:
            y = criteria[criterion].reindex(models).to_numpy(float)
            ok = np.isfinite(y)
            score = values.mean(axis=1)
            rho.append(spearman_columns(score[ok][:, None], y[ok])[0][0])
            masked = np.where((indices >= 0) & ok[np.maximum(indices, 0)], indices, -1)
            rho_b.append(resampled_spearman(np.column_stack([np.where(ok, y, 0), score]), masked)[:, 0])
        validity_b = np.nanmedian(np.column_stack(rho_b), axis=1)
        for name, sample in (("snr", snr_b), ("reliability", reliability_b), ("validity", validity_b)):
            draws[name].append(sample)
        point = {
            "snr": snr.at[benchmark, "snr"],
            "reliability": snr.at[benchmark, "reliability"],
            "validity": float(np.median(rho)),
        }
        row = {"benchmark": benchmark, "n_criteria": len(criteria.columns), "n_models": len(models)}
        for name, sample in (("snr", snr_b), ("reliability", reliability_b), ("validity", validity_b)):
            low, high = _interval(sample, level)
            row.update({name: point[name], f"{name}_ci_low": low, f"{name}_ci_high": high})
        rows.append(row)
    table = pd.DataFrame(rows)
    relations = [_relation(measure, table, draws, len(units), level) for measure in ("snr", "reliability")]
    return table, pd.DataFrame(relations)
